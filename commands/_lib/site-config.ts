import { existsSync, lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, posix, relative, sep } from 'node:path';
import { createRequire } from 'node:module';
import { fileNameProblem } from '../../src/content/safe-names.js';
import { DocsError } from '../../src/kernel/errors.js';

// gitbook-docs.yaml at the top of a repository: one file describes a whole site
// (docs/manual/docs-as-code.md#a-whole-site-from-one-repository), as GitBook's site-level Git Sync
// reads it: `site.structure` is a list of section groups, sections and site spaces (or only site
// spaces, for a site without sections), each with a stable `key`; a space's `content.directory`
// is the folder its pages come from (a folder as `docs content push DIR --space` reads it, with
// its own .gitbook.yaml and SUMMARY.md), `content.language` its language. Keys, not titles,
// paths or folders, say which item of the site an entry is from one push to the next.

export const SITE_FILE = 'gitbook-docs.yaml';

export type SiteItemType = 'section-group' | 'section' | 'space';

export interface SiteItem {
  type: SiteItemType;
  key: string;
  title: string;
  /** Sections and site spaces: the path segment on the site (default: from the title). */
  path?: string;
  default: boolean;
  /** Spaces: the folder, relative to DIR ('' for DIR itself); null: the space's content is not in the repository. */
  directory?: string | null;
  language?: string;
  children: SiteItem[];
  line: number;
}

export interface SiteConfig {
  title?: string;
  structure: SiteItem[];
  warnings: string[];
  text: string;
}

const require = createRequire(import.meta.url);
const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const TYPES: SiteItemType[] = ['section-group', 'section', 'space'];
const KNOWN_TOP = ['$schema', 'site'];
const KNOWN_SITE = ['title', 'structure'];
const KNOWN_ITEM = ['type', 'key', 'title', 'path', 'default', 'children', 'content'];
const KNOWN_CONTENT = ['directory', 'language'];
/** What each type may hold. */
const CHILDREN: Record<SiteItemType, SiteItemType[]> = { 'section-group': ['section-group', 'section'], section: ['space'], space: [] };

const within = (root: string, real: string) => {
  const r = relative(root, real);
  return r === '' || (r !== '..' && !r.startsWith(`..${sep}`) && !isAbsolute(r));
};

/** The site described by `text` (the file of DIR); every path checked against DIR when given. Exit 2 naming the line for bad input. */
export function parseSiteConfig(text: string, dir?: string): SiteConfig {
  const YAML = require('yaml') as typeof import('yaml');
  const lc = new YAML.LineCounter();
  const doc = YAML.parseDocument(text, { lineCounter: lc, uniqueKeys: false });
  const lineOf = (node: any) => (node?.range ? lc.linePos(node.range[0]).line : 1);
  const fail = (node: any, msg: string): never => {
    throw new DocsError('invalid', `${SITE_FILE} line ${lineOf(node)}: ${msg}; nothing was sent`);
  };
  if (doc.errors.length) {
    const e = doc.errors[0]!;
    throw new DocsError('invalid', `${SITE_FILE} line ${e.linePos?.[0]?.line ?? 1}: not valid YAML (${e.message.split('\n')[0]}); nothing was sent`);
  }
  const warnings: string[] = [];
  // A mapping's entries, duplicates refused, unknown ones warned about.
  const entries = (node: any, known: string[], where: string): Map<string, { key: any; value: any }> => {
    if (!YAML.isMap(node)) fail(node, `${where} must be a mapping`);
    const out = new Map<string, { key: any; value: any }>();
    for (const pair of (node as import('yaml').YAMLMap).items) {
      const name = String(YAML.isScalar(pair.key) ? pair.key.value : pair.key);
      if (out.has(name)) fail(pair.key, `${where}${name} is given twice (first on line ${lineOf(out.get(name)!.key)})`);
      out.set(name, { key: pair.key, value: pair.value });
      if (!known.includes(name)) warnings.push(`${SITE_FILE} line ${lineOf(pair.key)}: unknown key ${where}${name} (known: ${known.join(', ')}); ignored`);
    }
    return out;
  };
  const scalar = (e: { value: any } | undefined) => (e && YAML.isScalar(e.value) ? e.value.value : e?.value == null ? undefined : e.value);
  const str = (e: { key: any; value: any } | undefined, name: string, max = 200): string | undefined => {
    if (!e || e.value == null || (YAML.isScalar(e.value) && e.value.value == null)) return undefined;
    const v = scalar(e);
    if (typeof v !== 'string' || !v.trim() || v.length > max) fail(e.value ?? e.key, `${name} must be a text of 1 to ${max} characters`);
    return (v as string).trim();
  };
  const top = doc.contents == null ? fail(null, `empty: give site.structure, a list of sections and spaces`) : entries(doc.contents, KNOWN_TOP, '');
  const site = top.get('site') ?? fail(doc.contents, 'site: required (site.structure, a list of sections and spaces)');
  const siteEntries = entries(site.value, KNOWN_SITE, 'site.');
  const structure = siteEntries.get('structure') ?? fail(site.key, 'site.structure: required, a list of sections and spaces');
  const real = dir ? realpathSync(dir) : undefined;
  const keys = new Map<string, number>();
  const folders = new Map<string, number>();
  const items = (node: any, allowed: SiteItemType[], where: string): SiteItem[] => {
    if (!YAML.isSeq(node)) fail(node, `${where} must be a list`);
    const out: SiteItem[] = [];
    const paths = new Map<string, number>();
    for (const n of (node as import('yaml').YAMLSeq).items) {
      const e = entries(n, KNOWN_ITEM, '');
      const line = lineOf(n);
      const type = str(e.get('type'), 'type') as SiteItemType | undefined;
      if (!type || !TYPES.includes(type)) fail(e.get('type')?.value ?? n, `type must be one of ${TYPES.join(', ')}`);
      if (!allowed.includes(type!)) fail(n, `a ${type} cannot be in ${where} (it holds ${allowed.join(' or ')})`);
      const key = str(e.get('key'), 'key', 100);
      if (!key) fail(n, `key: required (a stable name for this ${type}: it says which ${type} of the site this is from one push to the next)`);
      if (!KEY.test(key!)) fail(e.get('key')!.value, `key ${key}: 1 to 100 letters, digits, '.', '_' or '-', starting with a letter or digit`);
      if (keys.has(key!)) fail(e.get('key')!.value, `key ${key} is already used on line ${keys.get(key!)}; each key names one item`);
      keys.set(key!, lineOf(e.get('key')!.value));
      const title = str(e.get('title'), 'title') ?? fail(n, `title: required`);
      let path = str(e.get('path'), 'path', 100);
      if (type === 'section-group' && path !== undefined) fail(e.get('path')!.value, 'a section group has no path');
      if (path !== undefined) {
        path = path.replace(/^\/+|\/+$/g, '');
        if (!/^[a-z0-9][a-z0-9._-]*$/i.test(path)) fail(e.get('path')!.value, `path ${path}: one segment of letters, digits, '.', '_' or '-'`);
        if (paths.has(path)) fail(e.get('path')!.value, `path ${path} is already used on line ${paths.get(path)} in the same ${where}`);
        paths.set(path, lineOf(e.get('path')!.value));
      }
      const def = scalar(e.get('default'));
      if (def !== undefined && typeof def !== 'boolean') fail(e.get('default')!.value, 'default must be true or false');
      const item: SiteItem = { type: type!, key: key!, title: title!, ...(path !== undefined ? { path } : {}), default: def === true, children: [], line };
      const content = e.get('content');
      if (type === 'space') {
        if (e.get('children')) fail(e.get('children')!.key, 'a space has no children');
        if (!content) fail(n, 'content: required for a space (content.directory: the folder of its pages, or null)');
        const c = entries(content!.value, KNOWN_CONTENT, 'content.');
        const d = c.get('directory');
        if (!d) fail(content!.key, 'content.directory: required (the folder of the space, or null when its content is not in the repository)');
        if (YAML.isScalar(d!.value) && d!.value.value === null) item.directory = null;
        else item.directory = folder(str(d, 'content.directory', 1000)!, d!.value);
        if (item.directory !== null) {
          if (folders.has(item.directory!))
            fail(d!.value, `content.directory ${item.directory || '.'} is already the folder of the space on line ${folders.get(item.directory!)}`);
          folders.set(item.directory!, lineOf(d!.value));
        }
        const lang = str(c.get('language'), 'content.language', 20);
        if (lang !== undefined) {
          if (!/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(lang)) fail(c.get('language')!.value, `content.language ${lang}: a language code (en, fr, pt-BR)`);
          item.language = lang;
        }
      } else {
        if (content) fail(content.key, `a ${type} has no content (its spaces have)`);
        const ch = e.get('children');
        item.children = ch ? items(ch.value, CHILDREN[type!], `${type} ${key}`) : [];
        if (type === 'section' && !item.children.length) fail(n, `section ${key} holds no space (children: a list of spaces; a section shows at least one)`);
      }
      out.push(item);
    }
    if (out.filter((i) => i.type === 'space' && i.default).length > 1) fail(node, `more than one default space in ${where}`);
    return out;
  };
  // A space's folder: relative to DIR, inside it (lexically, and through symbolic links).
  const folder = (value: string, node: any): string => {
    const p = posix.normalize(value.replace(/\\/g, '/').replace(/^\/+/, './')).replace(/\/+$/, '');
    if (p === '..' || p.startsWith('../') || /^[a-z]:/i.test(p)) fail(node, `content.directory ${value} leads outside the repository`);
    const rel = p === '.' ? '' : p.replace(/^\.\//, '');
    if (rel) {
      const bad = fileNameProblem(rel);
      if (bad) fail(node, `content.directory ${value}: ${bad}`);
    }
    if (dir) {
      const at = join(dir, rel);
      if (!existsSync(at) || !statSync(at).isDirectory()) fail(node, `content.directory ${value} is not a folder of the repository`);
      if (!within(real!, realpathSync(at))) fail(node, `content.directory ${value} leads outside the repository (through a symbolic link)`);
    }
    return rel;
  };
  const list = items(structure.value, ['section-group', 'section', 'space'], 'site.structure');
  const kinds = new Set(list.map((i) => i.type === 'space'));
  if (kinds.size > 1) fail(structure.value, 'site.structure holds either spaces (a site without sections) or sections and section groups, not both');
  if (!list.length) fail(structure.value, 'site.structure is empty');
  return { title: str(siteEntries.get('title'), 'site.title'), structure: list, warnings, text };
}

/** DIR/gitbook-docs.yaml, read and checked (exit 2 when missing or bad). */
export function readSiteConfig(dir: string): SiteConfig {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new DocsError('invalid', `DIR: ${dir} is not a folder`);
  const file = join(dir, SITE_FILE);
  if (!existsSync(file))
    throw new DocsError('invalid', `--site: ${dir} has no ${SITE_FILE} (site.structure: the sections and spaces of the site); nothing was sent`);
  if (lstatSync(file).isSymbolicLink() && !within(realpathSync(dir), realpathSync(file)))
    throw new DocsError('invalid', `${SITE_FILE}: leads outside ${dir}; nothing was sent`);
  if (!statSync(file).isFile()) throw new DocsError('invalid', `${SITE_FILE}: not a regular file; nothing was sent`);
  return parseSiteConfig(readFileSync(file, 'utf8'), dir);
}

/** Every item, depth first, with its parent. */
export function walkSite(items: SiteItem[], parent: SiteItem | null = null): { item: SiteItem; parent: SiteItem | null }[] {
  return items.flatMap((item) => [{ item, parent }, ...walkSite(item.children, item)]);
}

/** The file for a site's structure (what pull writes when the site no longer matches the file pushed). */
export function writeSiteConfig(title: string | undefined, items: SiteItem[]): string {
  const YAML = require('yaml') as typeof import('yaml');
  const out = (i: SiteItem): Record<string, unknown> => ({
    type: i.type,
    key: i.key,
    title: i.title,
    ...(i.path !== undefined ? { path: i.path } : {}),
    ...(i.default ? { default: true } : {}),
    ...(i.type === 'space'
      ? { content: { directory: i.directory == null ? null : `./${i.directory}`, ...(i.language ? { language: i.language } : {}) } }
      : { children: i.children.map(out) }),
  });
  return YAML.stringify({ site: { ...(title ? { title } : {}), structure: items.map(out) } });
}
