import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { readFileSync } from 'node:fs';
import { DocsError } from '../../src/kernel/errors.js';
import { DocsCommand } from '../_lib/base.js';
import { orgFlag, organizationOf } from '../_lib/org.js';
import { flatEntries } from '../_lib/render.js';
import { checkRequest } from '../_lib/request-check.js';

/** One --set: `a.b.c=value`, the value JSON when it parses (true, 12, {"light":...}), else the text itself. */
export interface Assignment {
  keys: string[];
  value: unknown;
}

/** Reads `KEY.PATH=VALUE`; a malformed one is refused before anything is sent. */
export function parseSet(assignment: string): Assignment {
  const eq = assignment.indexOf('=');
  const keys = assignment.slice(0, Math.max(eq, 0)).split('.');
  if (eq < 1 || keys.some((k) => !k)) throw new DocsError('invalid', `--set ${assignment}: expected KEY.PATH=VALUE, e.g. styling.primaryColor.light=#1f6feb`);
  const raw = assignment.slice(eq + 1);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    value = raw;
  }
  return { keys, value };
}

/** Sets one assignment into the body (objects on the way are copied, not shared). */
export function applySet(target: Record<string, any>, assignment: string | Assignment): void {
  const { keys, value } = typeof assignment === 'string' ? parseSet(assignment) : assignment;
  let at = target;
  for (const k of keys.slice(0, -1)) at = at[k] = at[k] && typeof at[k] === 'object' ? { ...at[k] } : {};
  at[keys.at(-1)!] = value;
}

export default class SitesCustomize extends DocsCommand {
  static operations = ['updateSiteCustomizationById', 'overrideSiteSpaceCustomizationById', 'getCustomFont'];
  static summary = "Change a site's customization (or a site space's overrides with --site-space)";
  static description =
    'API: GET then PUT /v1/orgs/{organizationId}/sites/{siteId}/customization (getSiteCustomizationById, updateSiteCustomizationById); ' +
    'with --site-space, PATCH .../site-spaces/{siteSpaceId}/customization (overrideSiteSpaceCustomizationById), where null resets an override.';
  static examples = [
    '<%= config.bin %> sites customize szK9Qp2mTtR4bLx0aVn1 --set styling.primaryColor.light=#1f6feb --set styling.primaryColor.dark=#58a6ff',
    '<%= config.bin %> sites customize szK9Qp2mTtR4bLx0aVn1 --set announcement=\'{"enabled":true,"message":"v2 is out","style":"info"}\'',
    '<%= config.bin %> sites customize szK9Qp2mTtR4bLx0aVn1 --file customization.json',
    '<%= config.bin %> sites customize szK9Qp2mTtR4bLx0aVn1 --site-space sspAq91LmZx2Vt8NcR0e --set styling.theme=bold',
    "<%= config.bin %> sites customize szK9Qp2mTtR4bLx0aVn1 --site-space sspAq91LmZx2Vt8NcR0e --set styling.theme=null   # back to the site's",
    '<%= config.bin %> sites customize szK9Qp2mTtR4bLx0aVn1 --font fnt4Vb8QmZp1LkS2xTc9   # a custom font (docs fonts create)',
  ];
  static args = { siteId: Args.string({ description: 'The site (its ID)', required: true }) };
  static flags = {
    org: orgFlag(),
    set: Flags.string({ description: 'KEY.PATH=VALUE (VALUE as JSON when it parses, else text); repeatable', multiple: true }),
    file: Flags.string({ description: 'JSON file: the whole customization (site) or the overrides (--site-space); --set applies on top' }),
    'site-space': Flags.string({ description: 'Change the overrides of this site space instead of the site' }),
    font: Flags.string({ description: 'Use this custom font (its ID, from docs fonts list) as styling.font' }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(SitesCustomize);
    if (!flags.set?.length && !flags.file && !flags.font) throw new DocsError('invalid', 'give --set KEY.PATH=VALUE, --file FILE or --font FONT');
    // Every value read before any call: a malformed --set or an unreadable --file sends nothing.
    const sets = (flags.set ?? []).map(parseSet);
    let file: Record<string, any> | undefined;
    if (flags.file) {
      try {
        file = JSON.parse(readFileSync(flags.file, 'utf8'));
      } catch (err) {
        throw new DocsError('invalid', `--file ${flags.file}: ${(err as Error).message}`);
      }
      if (!file || typeof file !== 'object' || Array.isArray(file)) throw new DocsError('invalid', `--file ${flags.file}: must hold a JSON object`);
    }
    const transport = await this.transport(flags);
    const path = { organizationId: await organizationOf(flags, transport), siteId: args.siteId };
    const body: Record<string, any> =
      file ?? (flags['site-space'] ? {} : structuredClone((await transport.call('getSiteCustomizationById', { path, query: {} })).body as Record<string, any>));
    if (flags.font) {
      // The font's definition as styling.font (docs/manual/site-delivery.md#on-a-published-site): the site serves its faces.
      const font = (await transport.call('getCustomFont', { path: { organizationId: path.organizationId, fontId: flags.font } })).body as Record<
        string,
        unknown
      >;
      const { permissions: _p, ...definition } = font;
      sets.push({ keys: ['styling', 'font'], value: definition });
    }
    for (const s of sets) applySet(body, s);
    const operationId = flags['site-space'] ? 'overrideSiteSpaceCustomizationById' : 'updateSiteCustomizationById';
    const req = { path: flags['site-space'] ? { ...path, siteSpaceId: flags['site-space'] } : path, body };
    // Checked before the PUT (unknown fields at every depth too): the error names the --set or --file at fault.
    try {
      checkRequest(operationId, req);
    } catch (err) {
      const blamed = blame(err, sets, flags.file, this.id!);
      // A field no --set touches came as the server gave it (a server on another version of the
      // contract may answer a customization our pinned schema would not accept): not the user's
      // input, so the server judges it, not the CLI.
      if (blamed) throw blamed;
    }
    // Checked above (or left to the server): the transport's own check would repeat it.
    this.unchecked.add(operationId);
    const result = await transport.call(operationId, req);
    if (!this.jsonEnabled()) this.log(customizeSummary(args.siteId, flags, result.body as Record<string, unknown>));
    return result.body;
  }
}

/**
 * What `sites customize` set, in a few lines: each --set path with the value now stored (its leaves
 * when it is an object), the top-level fields a --file gave, and where to see the rest.
 */
export function customizeSummary(
  siteId: string,
  flags: { set?: string[]; file?: string; 'site-space'?: string; font?: string },
  stored: Record<string, unknown>,
): string {
  const space = flags['site-space'];
  const lines = [space ? `Updated the overrides of site space ${space} on site ${siteId}:` : `Updated the customization of site ${siteId}:`];
  if (flags.file) {
    const fields = Object.keys(stored ?? {}).length;
    lines.push(`  from ${flags.file}${fields ? ` (${fields} top-level field${fields === 1 ? '' : 's'} stored)` : ''}`);
  }
  const rows: [string, string][] = [];
  if (flags.font) rows.push(['styling.font', `${(stored as any)?.styling?.font?.fontFamily ?? '?'} (custom font ${flags.font})`]);
  for (const assignment of flags.set ?? []) {
    const key = assignment.slice(0, assignment.indexOf('='));
    const value = key.split('.').reduce<any>((o, k) => o?.[k], stored);
    if (value === null || value === undefined) rows.push([key, space ? "reset (the site's value)" : 'none']);
    else rows.push(...flatEntries(value, key));
  }
  const width = Math.max(0, ...rows.map(([k]) => k.length));
  for (const [k, v] of rows) lines.push(`  ${k.padEnd(width)}  ${v}`.trimEnd());
  lines.push(space ? 'All of it: add --json.' : `All of it: docs sites customization ${siteId} (or add --json).`);
  return lines.join('\n');
}

/** "body.styling.primaryColour: ..." -> "--set styling.primaryColour: ..." (or --file); undefined when no --set or --file gave the field. */
function blame(err: unknown, sets: Assignment[], file: string | undefined, id: string): unknown {
  const m = err instanceof DocsError && err.kind === 'invalid' ? /^body\.?([^\s:]*): ([\s\S]*)$/.exec(err.message) : null;
  if (!m) return err;
  const [, field, rule] = m;
  // The --set sharing the longest leading path with the field at fault (styling.primaryColor.lihgt
  // for a styling.primaryColor.light now missing).
  const common = (keys: string[]) => {
    const f = field!.split('.');
    let n = 0;
    while (n < keys.length && n < f.length && keys[n] === f[n]) n++;
    return n;
  };
  // A --set is at fault when the field is on its path, or differs from it only in the last key.
  const set = sets
    .map((s) => ({ s, n: common(s.keys) }))
    .filter((c) => c.n > 0 && c.n >= c.s.keys.length - 1)
    .sort((a, b) => b.n - a.n)[0]?.s;
  const path = set?.keys.join('.');
  const where = set
    ? field === path || field!.startsWith(path + '.') || path!.startsWith(field + '.')
      ? `--set ${field}`
      : `--set ${path} (${field})`
    : file
      ? `--file ${file}: ${field}`
      : undefined;
  return where && new DocsError('invalid', `${where}: ${rule} (see docs ${id.replace(/:/g, ' ')} --help)`);
}
