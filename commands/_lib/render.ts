// Human output. --json (and --jq) bypass all of this and print the API body as it is.
//
// On a terminal (docs/manual/cli.md#in-scripts-and-at-the-terminal):
// - lists: a table that fits the terminal's width, headers in words ("Created by"), long cells cut
//   with "…" (ids kept whole while the rest can still be read), names instead of objects, times
//   relative ("3 hr. ago"), short columns whole, no borders and no line between rows;
// - one object: a summary, labels in words, nested objects indented (two levels) or as counts,
//   booleans maps as what is true ("view, edit"), never a JSON blob; a last line points to --json.
// Elsewhere (a pipe, a file, CI), as gh does: lists as tab-separated rows without a header, one
// object as `key<TAB>value` lines with dotted keys; no colors, nothing cut, times as sent.
// Every function takes the output's {tty, width, color} so the tests can render both.
import { colorEnabled, paint } from './color.js';

export interface RenderOptions {
  /** stdout is a terminal: tables and summaries; else tab-separated values. */
  tty: boolean;
  /** The terminal's width in columns (tables fit it); Infinity off a terminal. */
  width: number;
  /** Colors allowed (a terminal, NO_COLOR unset). */
  color: boolean;
  /** The time relative times count from (tests); default: now. */
  now?: number;
}

/** The options of what goes to `stream` (stdout by default). */
export function outputOptions(stream: { isTTY?: boolean; columns?: number } = process.stdout): RenderOptions {
  const tty = Boolean(stream.isTTY);
  return { tty, width: tty ? stream.columns || 80 : Infinity, color: colorEnabled(stream) };
}

const GAP = 2; // spaces between table columns
const MIN_CELL = 6; // narrowest a cut column gets while ids keep their width
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;
const ACRONYMS: Record<string, string> = {
  id: 'ID',
  ids: 'IDs',
  url: 'URL',
  urls: 'URLs',
  api: 'API',
  sso: 'SSO',
  saml: 'SAML',
  pdf: 'PDF',
  ai: 'AI',
  mcp: 'MCP',
  http: 'HTTP',
  json: 'JSON',
  jwt: 'JWT',
};
const NAME_KEYS = ['displayName', 'title', 'name', 'label'];

type Obj = Record<string, unknown>;
const isScalar = (v: unknown): v is string | number | boolean | null => v === null || ['string', 'number', 'boolean'].includes(typeof v);
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const at = (item: unknown, path: string) => path.split('.').reduce<any>((o, k) => o?.[k], item);
const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const lowerFirst = (s: string) => (/^[A-Z][a-z]/.test(s) ? s.charAt(0).toLowerCase() + s.slice(1) : s);
const oneLine = (s: string) => s.replace(/[\t\r\n]+/g, ' ');
const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** A key in words: "createdAt" -> "Created", "changeRequestsOpen" -> "Change requests open", "startURL" -> "Start URL". */
export function words(key: string): string {
  const parts = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[_\-.\s]+/g, ' ')
    .trim()
    .toLowerCase()
    .split(' ');
  if (parts.length > 1 && parts.at(-1) === 'at') parts.pop(); // a time: "updated", "last seen"
  return upperFirst(parts.map((w) => ACRONYMS[w] ?? w).join(' '));
}

/**
 * A column's header from its path: "createdBy.displayName" -> "Created by", "space.id" -> "Space
 * ID", "urls.published" -> "Published URL", "id" -> "ID"; a path already in words stays as it is.
 */
export function heading(path: string): string {
  if (/\s/.test(path)) return upperFirst(path);
  const segs = path.split('.');
  if (segs.length === 1) return words(path);
  const [last, parent] = [segs.at(-1)!, segs.at(-2)!];
  if (NAME_KEYS.includes(last)) return words(parent);
  if (last === 'id') return `${words(parent)} ID`;
  if (last === 'email') return 'Email';
  if (last === 'markdown' || last === 'text') return words(segs[0]!);
  if (segs[0] === 'urls') return `${words(last)} URL`;
  return words(segs.join(' '));
}

/** The name a person knows an object by (a user's, a space's title, ...), if it has one. */
function nameOf(v: Obj): string | undefined {
  for (const k of NAME_KEYS) if (typeof v[k] === 'string' && v[k]) return v[k] as string;
  return undefined;
}

/** "3 hours ago", "in 7 days", "yesterday"; short (table cells): "3 hr. ago", "1 day ago". */
export function relativeTime(iso: string, now = Date.now(), short = false): string {
  const seconds = (Date.parse(iso) - now) / 1000;
  const abs = Math.abs(seconds);
  if (abs < 45) return 'just now';
  const [unit, size]: [Intl.RelativeTimeFormatUnit, number] =
    abs < 45 * 60
      ? ['minute', 60]
      : abs < 22 * 3600
        ? ['hour', 3600]
        : abs < 26 * 86400
          ? ['day', 86400]
          : abs < 320 * 86400
            ? ['month', 2_629_800]
            : ['year', 31_557_600];
  return relativeFormat(short).format(Math.round(seconds / size), unit);
}

// Built once per run: a table of times would otherwise build two ICU formatters per cell.
const formats: Partial<Record<'short' | 'long', Intl.RelativeTimeFormat>> = {};
const relativeFormat = (short: boolean) =>
  short ? (formats.short ??= new Intl.RelativeTimeFormat('en', { style: 'short' })) : (formats.long ??= new Intl.RelativeTimeFormat('en', { numeric: 'auto' }));

/** One value in a table cell (or a TSV field): never JSON. */
function cellText(v: unknown, o: RenderOptions): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return o.tty && ISO_TIME.test(v) ? relativeTime(v, o.now, true) : oneLine(v);
  if (isScalar(v)) return String(v);
  if (Array.isArray(v)) {
    if (v.every(isScalar)) return oneLine(v.join(', '));
    const names = v.map((x) => (isObject(x) ? nameOf(x) : undefined));
    return names.every(Boolean) ? oneLine(names.join(', ')) : count(v.length, 'item');
  }
  const o2 = v as Obj;
  const name = nameOf(o2);
  if (name) return oneLine(name);
  const entries = Object.entries(o2).filter(([k]) => k !== 'object');
  if (entries.every(([, x]) => isScalar(x))) return oneLine(entries.map(([k, x]) => `${k}: ${x}`).join(', '));
  return count(entries.length, 'field');
}

/** Columns to show: the given ones, else `id`, a name, and the next few plain (or named) fields. */
export function pickColumns(items: Obj[], wanted?: string[]): string[] {
  if (wanted?.length) return wanted;
  const keys = new Set<string>();
  for (const item of items.slice(0, 20)) {
    for (const [k, v] of Object.entries(item)) if (k !== 'object' && k !== 'urls' && (isScalar(v) || (isObject(v) && nameOf(v)))) keys.add(k);
  }
  const first = ['id', ...NAME_KEYS].filter((k) => keys.has(k));
  return [...first, ...[...keys].filter((k) => !first.includes(k))].slice(0, 5);
}

/** Columns a person copies (ids, numbers, slugs): not cut while the others can still be read. */
const keepWhole = (path: string) => /(^|\.)(id|number|slug)$|Id$/.test(path);

/** Splits `total` among wants: the small ones whole, the big ones cut to one equal cap. */
function waterfill(wants: number[], total: number): number[] {
  const out = wants.map(() => 0);
  let left = wants.length;
  for (const i of wants.map((_, i) => i).sort((a, b) => wants[a]! - wants[b]!)) {
    out[i] = Math.max(0, Math.min(wants[i]!, Math.floor(total / left)));
    total -= out[i]!;
    left--;
  }
  return out;
}

/**
 * Column widths within `width`: as they are when they fit. Else the ids keep theirs, every other
 * column keeps its `floor` (short ones whole), and what is left goes to the widest (a title)
 * up to an equal cap; when even that does not fit, the ids keep theirs while the others can keep
 * MIN_CELL, and past that every column is cut alike.
 */
export function fitWidths(natural: number[], keep: boolean[], width: number, floor: number[] = natural.map(() => MIN_CELL)): number[] {
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const room = width - GAP * (natural.length - 1);
  if (sum(natural) <= room) return natural;
  const base = natural.map((n, i) => (keep[i] ? n : Math.min(n, floor[i]!)));
  if (sum(base) <= room) {
    const more = waterfill(
      natural.map((n, i) => n - base[i]!),
      room - sum(base),
    );
    return base.map((b, i) => b + more[i]!);
  }
  const fixed = sum(natural.filter((_, i) => keep[i]));
  const others = natural.map((_, i) => i).filter((i) => !keep[i]);
  if (others.length && room - fixed >= others.length * MIN_CELL) {
    const cut = waterfill(
      others.map((i) => natural[i]!),
      room - fixed,
    );
    return natural.map((n, i) => (keep[i] ? n : cut[others.indexOf(i)]!));
  }
  return waterfill(natural, room).map((w) => Math.max(1, w));
}

interface WidthUtils {
  strlen(s: string): number;
  truncate(s: string, width: number, ellipsis: string): string;
}

/**
 * Display widths (emoji and CJK take two columns) and cutting to a width, from cli-table3's own
 * helpers (string-width inside); loaded only when a table goes to a terminal.
 */
async function widthUtils(): Promise<WidthUtils> {
  const spec = 'cli-table3/src/utils.js';
  return ((await import(spec)) as { default: WidthUtils }).default;
}

/** A list: a table on a terminal, tab-separated rows without a header elsewhere. */
export async function renderTable(items: Obj[], columns?: string[], o: RenderOptions = outputOptions()): Promise<string> {
  const cols = pickColumns(items, columns);
  const rows = items.map((item) => cols.map((c) => cellText(at(item, c), o)));
  if (!o.tty) return rows.map((r) => r.join('\t')).join('\n');
  const { strlen, truncate } = await widthUtils();
  const heads = cols.map(heading);
  const natural = cols.map((_, i) => Math.max(strlen(heads[i]!), ...rows.map((r) => strlen(r[i]!))));
  // Short columns (a role, a time) stay whole; long ones keep at least their header's width.
  const floor = heads.map((h, i) => (natural[i]! <= 12 ? natural[i]! : Math.max(MIN_CELL, Math.min(strlen(h), 12))));
  const widths = fitWidths(natural, cols.map(keepWhole), o.width, floor);
  const p = paint(o.color);
  const line = (cells: string[], style = (s: string) => s) =>
    cells
      .map((c, i) => {
        const text = truncate(c, widths[i]!, '…');
        return style(text) + (i < cells.length - 1 ? ' '.repeat(Math.max(0, widths[i]! - strlen(text))) : '');
      })
      .join(' '.repeat(GAP))
      .trimEnd();
  return [line(heads, p.bold), ...rows.map((r) => line(r))].join('\n');
}

/**
 * A list for stdout: its table; when empty, the `empty` note on a terminal, and off a terminal
 * nothing (the note on stderr), so that a script reading rows reads none.
 */
export async function renderList(items: Obj[], columns?: string[], empty = 'No items.', o: RenderOptions = outputOptions()): Promise<string> {
  if (items.length) return renderTable(items, columns, o);
  if (o.tty) return empty;
  process.stderr.write(empty + '\n');
  return '';
}

/** One value on one line of a summary: never JSON (lists and deep objects counted). */
function inline(v: unknown, o: RenderOptions): string {
  if (v === null) return 'none';
  if (typeof v === 'string') return o.tty && ISO_TIME.test(v) ? `${v.replace(/\.\d+Z$/, 'Z')} (${relativeTime(v, o.now)})` : v;
  if (isScalar(v)) return String(v);
  if (Array.isArray(v)) {
    if (!v.length) return 'none';
    if (v.every(isScalar) && v.join(', ').length <= 80) return v.join(', ');
    const names = v.map((x) => (isObject(x) ? nameOf(x) : undefined));
    const items = count(v.length, 'item');
    return names.every(Boolean) && v.length <= 3 ? `${items}: ${names.join(', ')}` : items;
  }
  const obj = v as Obj;
  const name = nameOf(obj);
  if (name) return `${name}${typeof obj.email === 'string' ? ` <${obj.email}>` : ''}${typeof obj.id === 'string' ? ` (${obj.id})` : ''}`;
  const entries = Object.entries(obj).filter(([k, x]) => k !== 'object' && x !== undefined);
  if (!entries.length) return 'none';
  // Many switches (permissions): the ones on; a few ("enabled: false") as they are.
  if (entries.length > 3 && entries.every(([, x]) => typeof x === 'boolean')) {
    const yes = entries.filter(([, x]) => x).map(([k]) => lowerFirst(words(k)));
    return yes.length ? yes.join(', ') : 'none';
  }
  if (entries.every(([, x]) => isScalar(x))) return entries.map(([k, x]) => `${lowerFirst(words(k))}: ${inline(x, o)}`).join(', ');
  return count(entries.length, 'field');
}

/** A nested object shown as its own indented block rather than on one line. */
function asBlock(v: unknown, o: RenderOptions): v is Obj {
  if (!isObject(v) || nameOf(v)) return false;
  const entries = Object.entries(v).filter(([k, x]) => k !== 'object' && x !== undefined);
  if (!entries.length || (entries.length > 3 && entries.every(([, x]) => typeof x === 'boolean'))) return false;
  return !(entries.every(([, x]) => isScalar(x)) && inline(v, o).length <= 60);
}

function summaryLines(obj: Obj, indent: number, depth: number, o: RenderOptions, out: string[]): void {
  const entries = Object.entries(obj).filter(([k, v]) => k !== 'object' && v !== undefined && v !== '');
  const labels = entries.map(([k]) => words(k));
  const width = Math.max(0, ...labels.map((l) => l.length));
  const pad = ' '.repeat(indent);
  entries.forEach(([, v], i) => {
    if (depth < 2 && asBlock(v, o)) {
      out.push(pad + labels[i]);
      summaryLines(v, indent + 2, depth + 1, o, out);
      return;
    }
    // A text of several lines goes on under its first one, at the value's column.
    const value = inline(v, o).replace(/\n/g, '\n' + ' '.repeat(indent + width + GAP));
    out.push(`${pad}${labels[i]!.padEnd(width)}${' '.repeat(GAP)}${value}`.trimEnd());
  });
}

/** `[dotted.key, text]` of every leaf of `v` (4 levels deep at most; lists counted), as `path`'s. */
export function flatEntries(v: unknown, path = '', depth = 0, out: [string, string][] = []): [string, string][] {
  if (isObject(v) && depth < 4 && Object.keys(v).length) {
    for (const [k, x] of Object.entries(v)) if (k !== 'object' && x !== undefined) flatEntries(x, path ? `${path}.${k}` : k, depth + 1, out);
    return out;
  }
  let text: string;
  if (v === null || v === undefined || (isObject(v) && !Object.keys(v).length)) text = '';
  else if (isScalar(v)) text = String(v);
  else if (Array.isArray(v)) text = v.every(isScalar) ? v.join(',') : count(v.length, 'item');
  else text = count(Object.keys(v as Obj).length, 'field');
  out.push([path, oneLine(text)]);
  return out;
}

/**
 * One object: on a terminal a summary (see above) closed by a hint to --json; elsewhere
 * `key<TAB>value` lines, nested keys dotted (`urls.app`), lists counted.
 */
export function renderObject(obj: Obj, o: RenderOptions = outputOptions()): string {
  const out: string[] = [];
  if (!o.tty) {
    return flatEntries(obj)
      .map(([k, v]) => `${k}\t${v}`)
      .join('\n');
  }
  summaryLines(obj, 0, 0, o, out);
  out.push(paint(o.color).dim('(--json prints every field)'));
  return out.join('\n');
}
