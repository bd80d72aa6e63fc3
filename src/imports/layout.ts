import { posix } from 'node:path';
import { createRequire } from 'node:module';
import { readPageSource } from '../documents/page-source.js';
import type { Parse } from '../content/link-refs.js';
import { invalid } from '../kernel/errors.js';
import type { Files } from './archive.js';

// The page tree of a folder of docs, whatever tool laid it out (docs/manual/imports-and-git.md#layouts):
// GitBook (SUMMARY.md, as `docs content push` reads it), Docusaurus (docs/ and sidebars.json; a
// sidebars.js is code and is not run: the docs/ folder tree is used), MkDocs (mkdocs.yml `nav`,
// docs_dir), Mintlify (mint.json or docs.json `navigation`), else the folder tree itself (a root
// README.md first). A page's text goes through the same reader as a pushed file
// (src/documents/page-source.ts): frontmatter, a leading `# Title`, the body.

const require = createRequire(import.meta.url);

export type LayoutKind = 'gitbook' | 'docusaurus' | 'mkdocs' | 'mintlify' | 'folder';

export interface ImportedPage {
  /** The file it came from (its sourceURL), or '' for a group. */
  file: string;
  title: string;
  slug: string;
  /** Frontmatter fields the server keeps (description, emoji, hidden, ...). */
  fields: Record<string, unknown>;
  body: string;
  group?: boolean;
  children: ImportedPage[];
}

export interface Layout {
  kind: LayoutKind;
  pages: ImportedPage[];
  /** Files that are not pages (images...), by path. */
  assets: Map<string, Buffer>;
}

const MD = /\.(md|mdx|markdown)$/i;
const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);
const stem = (p: string) => baseName(p).replace(MD, '');

/** A slug the content batch accepts (letters and digits joined by - _ .), from a file or title. */
export function slugOf(text: string): string {
  const s = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/^\d+[-_.]/, (m) => m) // numbered files keep their number
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '');
  return s || 'page';
}

/** MDX: top-level import/export lines are code, not text. */
const stripMdx = (text: string) => text.replace(/^(import|export)\s[^\n]*\n/gm, '');

function page(files: Files, file: string, label?: string, children: ImportedPage[] = []): ImportedPage {
  const bytes = files.get(file);
  if (!bytes) throw invalid(`${file}: listed by the navigation but not in the import; nothing was imported`);
  let text = bytes.toString('utf8');
  if (/\.mdx$/i.test(file)) text = stripMdx(text);
  let src;
  try {
    src = readPageSource(text, label ? { title: label } : undefined);
  } catch (err) {
    throw invalid(`${file}: ${(err as Error).message}; nothing was imported`);
  }
  const name = /^(readme|index)$/i.test(stem(file)) && file.includes('/') ? baseName(posix.dirname(file)) : stem(file);
  return { file, title: src.title || label || name, slug: slugOf(name), fields: src.fields, body: src.body, children };
}

const group = (title: string, children: ImportedPage[]): ImportedPage => ({
  file: '',
  title,
  slug: slugOf(title),
  fields: {},
  body: '',
  group: true,
  children,
});

/** Finds `name` (a page id or path without extension) among the markdown files under `dir`. */
function findDoc(files: Files, dir: string, name: string): string | undefined {
  const base = posix.normalize(posix.join(dir, name.replace(/^\//, '')));
  for (const ext of ['', '.md', '.mdx', '.markdown', '/index.md', '/index.mdx', '/README.md'])
    if (files.has(base + ext) && MD.test(base + ext)) return base + ext;
  return undefined;
}

// GitBook: SUMMARY.md, lists of links under `## Group` headings.
function gitbook(files: Files, parse: Parse, summary: string): ImportedPage[] {
  const dir = posix.dirname(summary) === '.' ? '' : posix.dirname(summary);
  const tree = parse(files.get(summary)!.toString('utf8')) as any;
  const textOf = (n: any): string => (typeof n.value === 'string' ? n.value : (n.children ?? []).map(textOf).join(''));
  const items = (list: any): ImportedPage[] =>
    (list?.children ?? []).flatMap((li: any) => {
      const para = li.children.find((c: any) => c.type === 'paragraph');
      const link = para?.children.find((c: any) => c.type === 'link');
      if (!link || /^[a-z][a-z0-9+.-]*:/i.test(link.url)) return [];
      const file = posix.normalize(posix.join(dir, decodeURI(link.url).split('#')[0]!));
      if (file.startsWith('../')) throw invalid(`${summary}: ${link.url} is outside the import; nothing was imported`);
      return [page(files, file, textOf(link).trim() || undefined, items(li.children.find((c: any) => c.type === 'list')))];
    });
  const out: ImportedPage[] = [];
  let current: ImportedPage | undefined;
  for (const node of tree.children) {
    if (node.type === 'heading' && node.depth >= 2) out.push((current = group(textOf(node).trim() || 'Group', [])));
    else if (node.type === 'list') (current ? current.children : out).push(...items(node));
  }
  return out;
}

// Docusaurus: sidebars.json's first sidebar (doc ids, categories), else the docs/ tree.
function docusaurus(files: Files, root: string): ImportedPage[] {
  const docs = posix.join(root, 'docs');
  const json = files.get(posix.join(root, 'sidebars.json'));
  if (json) {
    let sidebars: any;
    try {
      sidebars = JSON.parse(json.toString('utf8'));
    } catch (err) {
      throw invalid(`sidebars.json: not valid JSON (${(err as Error).message}); nothing was imported`);
    }
    const first = Object.values(sidebars ?? {})[0];
    const walk = (items: any): ImportedPage[] => {
      const list = Array.isArray(items) ? items : Object.entries(items ?? {}).map(([label, v]) => ({ type: 'category', label, items: v }));
      return list.flatMap((it: any): ImportedPage[] => {
        if (typeof it === 'string' || it?.type === 'doc') {
          const f = findDoc(files, docs, typeof it === 'string' ? it : it.id);
          return f ? [page(files, f, it?.label)] : [];
        }
        if (it?.type === 'category') return [group(String(it.label ?? 'Category'), walk(it.items))];
        return [];
      });
    };
    return walk(first);
  }
  return folderTree(files, docs);
}

// MkDocs: `nav` of mkdocs.yml (files relative to docs_dir), else the docs_dir tree.
function mkdocs(files: Files, file: string): ImportedPage[] {
  const root = posix.dirname(file) === '.' ? '' : posix.dirname(file);
  let config: any;
  try {
    // MkDocs files use `!!python/name:` tags: read them as plain strings.
    const YAML = require('yaml') as typeof import('yaml');
    config = YAML.parse(files.get(file)!.toString('utf8'), {
      customTags: [{ tag: 'tag:yaml.org,2002:python/name', resolve: (s: string) => s } as any],
      logLevel: 'silent',
    } as any);
  } catch (err) {
    throw invalid(`${file}: not valid YAML (${(err as Error).message.split('\n')[0]}); nothing was imported`);
  }
  const docsDir = posix.join(root, typeof config?.docs_dir === 'string' ? config.docs_dir : 'docs');
  if (!Array.isArray(config?.nav)) return folderTree(files, docsDir);
  const walk = (items: any[]): ImportedPage[] =>
    items.flatMap((it): ImportedPage[] => {
      if (typeof it === 'string') {
        const f = findDoc(files, docsDir, it);
        return f ? [page(files, f)] : [];
      }
      if (it && typeof it === 'object') {
        const [label, v] = Object.entries(it)[0] ?? [];
        if (typeof v === 'string') {
          if (/^[a-z][a-z0-9+.-]*:/i.test(v)) return [];
          const f = findDoc(files, docsDir, v);
          return f ? [page(files, f, label)] : [];
        }
        if (Array.isArray(v)) return [group(String(label), walk(v))];
      }
      return [];
    });
  return walk(config.nav);
}

// Mintlify: `navigation` of mint.json (groups of page paths) or docs.json (tabs, groups, pages).
function mintlify(files: Files, file: string): ImportedPage[] {
  const root = posix.dirname(file) === '.' ? '' : posix.dirname(file);
  let config: any;
  try {
    config = JSON.parse(files.get(file)!.toString('utf8'));
  } catch (err) {
    throw invalid(`${file}: not valid JSON (${(err as Error).message}); nothing was imported`);
  }
  const walk = (node: any): ImportedPage[] => {
    if (typeof node === 'string') {
      const f = findDoc(files, root, node);
      return f ? [page(files, f)] : [];
    }
    if (Array.isArray(node)) return node.flatMap(walk);
    if (!node || typeof node !== 'object') return [];
    if (typeof node.group === 'string' && Array.isArray(node.pages)) return [group(node.group, node.pages.flatMap(walk))];
    const title = node.tab ?? node.anchor ?? node.dropdown ?? node.version ?? node.language;
    const inner = ['tabs', 'anchors', 'groups', 'pages', 'dropdowns', 'versions', 'languages'].flatMap((k) => (node[k] ? walk(node[k]) : []));
    return typeof title === 'string' && inner.length ? [group(title, inner)] : inner;
  };
  return walk(config?.navigation);
}

/** The folder tree: `x.md` files and folders (README.md or index.md their body), natural order, README first. */
export function folderTree(files: Files, dir: string): ImportedPage[] {
  const prefix = dir ? `${dir}/` : '';
  const natural = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
  const build = (at: string): ImportedPage[] => {
    const names = new Set<string>();
    for (const f of files.keys()) {
      if (
        !f.startsWith(at) ||
        f
          .slice(at.length)
          .split('/')
          .some((s) => s.startsWith('.') || s.startsWith('_'))
      )
        continue;
      const rest = f.slice(at.length);
      const head = rest.split('/')[0]!;
      if (rest.includes('/') || MD.test(head)) names.add(rest.includes('/') ? `${head}/` : head);
    }
    const readme = (n: string) => at === prefix && /^(readme|index)\.mdx?$/i.test(n);
    const sorted = [...names].filter((n) => n !== 'SUMMARY.md').sort((a, b) => Number(readme(b)) - Number(readme(a)) || natural.compare(a, b));
    const out: ImportedPage[] = [];
    for (const n of sorted) {
      if (n.endsWith('/')) {
        const sub = at + n;
        const index = ['README.md', 'index.md', 'index.mdx', 'README.mdx'].map((x) => sub + x).find((x) => files.has(x));
        const children = build(sub);
        if (index) out.push(page(files, index, undefined, children));
        else if (children.length) out.push({ ...group(n.slice(0, -1), children), group: false, body: '' });
      } else if (readme(n) || !/^(readme|index)\.mdx?$/i.test(n)) out.push(page(files, at + n));
    }
    return out;
  };
  return build(prefix);
}

/** Which tool laid out the files, and their page tree. */
export function readLayout(files: Files, parse: Parse): Layout {
  const has = (n: string) => files.has(n);
  let kind: LayoutKind;
  let pages: ImportedPage[];
  if (has('SUMMARY.md')) [kind, pages] = ['gitbook', gitbook(files, parse, 'SUMMARY.md')];
  else if (has('mint.json') || has('docs.json')) [kind, pages] = ['mintlify', mintlify(files, has('mint.json') ? 'mint.json' : 'docs.json')];
  else if (has('mkdocs.yml') || has('mkdocs.yaml')) [kind, pages] = ['mkdocs', mkdocs(files, has('mkdocs.yml') ? 'mkdocs.yml' : 'mkdocs.yaml')];
  else if ((has('sidebars.json') || has('sidebars.js') || has('sidebars.ts')) && [...files.keys()].some((f) => f.startsWith('docs/')))
    [kind, pages] = ['docusaurus', docusaurus(files, '')];
  else [kind, pages] = ['folder', folderTree(files, '')];
  const used = new Set<string>();
  const mark = (ps: ImportedPage[]) => ps.forEach((p) => (used.add(p.file), mark(p.children)));
  mark(pages);
  const assets = new Map(
    [...files].filter(
      ([n]) =>
        !MD.test(n) &&
        !/^(mint|docs|sidebars)\.json$|^mkdocs\.ya?ml$|^sidebars\.[jt]s$/.test(n) &&
        !n.split('/').some((s) => s.startsWith('.') && s !== '.gitbook'),
    ),
  );
  if (!pages.length) throw invalid(`the import holds no pages (no markdown files where a ${kind} layout puts them); nothing was imported`);
  return { kind, pages, assets };
}
