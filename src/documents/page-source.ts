import { createRequire } from 'node:module';

// `yaml` is loaded on first use (frontmatter only): it is ~50 ms of every CLI command otherwise.
const require = createRequire(import.meta.url);
let yamlModule: typeof import('yaml') | undefined;
const yaml = () => (yamlModule ??= require('yaml') as typeof import('yaml'));
const parseYaml = (text: string) => yaml().parse(text);
const stringifyYaml = (value: unknown) => yaml().stringify(value);

// A page's markdown file as people and Git keep it: optional YAML frontmatter (description,
// emoji, icon, hidden...), a leading `# Title`, then the body. The server stores the title and
// the fields on the page and the body as its markdown; `docs content pull` writes them back
// in this form, and `push` reads them the same way, so pull then push compares equal.

export interface PageSource {
  title?: string;
  fields: Record<string, unknown>;
  body: string;
}

export const FRONTMATTER_FIELDS = ['title', 'description', 'emoji', 'icon', 'hidden', 'noIndex', 'noRobotsIndex', 'condition'] as const;

/**
 * Splits a markdown file into frontmatter fields, leading-heading title and body. `title`: the
 * title is given elsewhere (a SUMMARY.md link's text, as GitBook's Git Sync has it): the leading
 * heading is taken as the title only when it says the same, and otherwise stays in the body.
 */
export function readPageSource(text: string, given?: { title?: string }): PageSource {
  let rest = text.replace(/\r\n/g, '\n');
  const fields: Record<string, unknown> = {};
  const fm = /^---\n([\s\S]*?)\n---\n?/.exec(rest);
  if (fm) {
    let data: unknown;
    try {
      data = parseYaml(fm[1]!);
    } catch (err) {
      throw new Error(`frontmatter: not valid YAML (${(err as Error).message.split('\n')[0]})`);
    }
    if (data && typeof data === 'object') for (const k of FRONTMATTER_FIELDS) if (k in data) fields[k] = (data as any)[k];
    rest = rest.slice(fm[0].length);
  }
  let title: string | undefined;
  const h1 = /^\s*# +(.+?)\s*#*\s*(?:\n|$)/.exec(rest);
  if (h1 && (given?.title === undefined || h1[1]!.trim() === given.title)) {
    title = h1[1]!.trim();
    rest = rest.slice(h1[0].length);
  }
  if (given?.title) title = given.title;
  if (typeof fields.title === 'string' && fields.title) title = fields.title;
  delete fields.title;
  return { title, fields, body: normalizeBody(rest) };
}

/** Bodies compare equal whatever the surrounding blank lines. */
export function normalizeBody(body: string): string {
  const lf = body.replace(/\r\n/g, '\n');
  // The multiline regex tries every position of the text: run it only when a line ends in a space
  // or tab (found with indexOf, a fast scan), which most bodies do not (a no-op push compares 1,000).
  const t = (lf.includes(' \n') || lf.includes('\t\n') || lf.endsWith(' ') || lf.endsWith('\t') ? lf.replace(/[ \t]+$/gm, '') : lf).trim();
  return t ? t + '\n' : '';
}

/** The file for a page: frontmatter for the fields that are set, `# title`, the body. */
export function writePageSource(src: { title: string; fields: Record<string, unknown>; body: string }): string {
  const set = Object.fromEntries(Object.entries(src.fields).filter(([, v]) => v !== undefined && v !== '' && v !== false));
  const fm = Object.keys(set).length ? `---\n${stringifyYaml(set).trimEnd()}\n---\n\n` : '';
  const body = normalizeBody(src.body);
  return `${fm}# ${src.title}\n${body ? '\n' + body : ''}`;
}
