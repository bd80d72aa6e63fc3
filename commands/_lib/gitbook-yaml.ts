import { existsSync, lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, posix, relative, sep } from 'node:path';
import { createRequire } from 'node:module';
import { fileNameProblem } from '../../src/content/safe-names.js';
import { DocsError } from '../../src/kernel/errors.js';

// `.gitbook.yaml` at the top of a repository's docs folder, as GitBook's Git Sync reads it:
//   root: ./docs/                 # where the docs are; every other path is relative to it
//   structure:
//     readme: README.md           # the first page
//     summary: SUMMARY.md         # the table of contents
//   redirects:
//     previous/page: new-folder/page.md
// `docs content push DIR` reads the pages under DIR/<root>, the table of contents at
// <root>/<structure.summary>, the first page from <root>/<structure.readme>; the file itself is
// kept in the space (a file named `.gitbook.yaml`: this server has no site redirects, so the
// redirects travel with the content and come back with `docs content pull`, which writes the
// pages under the same root). Unknown keys are named in a warning and ignored.

export const CONFIG_FILE = '.gitbook.yaml';

export interface RepoConfig {
  /** The docs folder, relative to DIR ('' for DIR itself). */
  root: string;
  /** Relative to root. */
  summary: string;
  readme: string;
  redirects: Record<string, string>;
  /** The file as it is (kept in the space), when there is one. */
  text?: string;
  warnings: string[];
}

const KNOWN = ['root', 'structure', 'redirects'];
const KNOWN_STRUCTURE = ['readme', 'summary'];

const require = createRequire(import.meta.url);

/** A path of the config, relative and inside: `./docs/` → `docs`; refused when it leads out. */
function inside(value: unknown, key: string, dir = false): string {
  if (typeof value !== 'string' || !value.trim()) throw new DocsError('invalid', `${CONFIG_FILE}: ${key} must be a path (a string); nothing was sent`);
  const p = posix.normalize(value.trim().replace(/\\/g, '/')).replace(/\/+$/, '');
  if (p === '.' || p === '') {
    if (dir) return '';
    throw new DocsError('invalid', `${CONFIG_FILE}: ${key} must name a file; nothing was sent`);
  }
  if (p === '..' || p.startsWith('../') || posix.isAbsolute(p) || /^[a-z]:/i.test(p))
    throw new DocsError('invalid', `${CONFIG_FILE}: ${key} ${value} leads outside the folder; nothing was sent`);
  const bad = fileNameProblem(p.replace(/^\.\//, ''));
  if (bad) throw new DocsError('invalid', `${CONFIG_FILE}: ${key} ${value}: ${bad}; nothing was sent`);
  return p.replace(/^\.\//, '');
}

/** The configuration from the file's text (the same reading for push, and for pull of a space that keeps one). */
export function parseRepoConfig(text: string): RepoConfig {
  let data: any;
  try {
    // No file (a pull of a space that keeps none): the defaults, without loading the YAML
    // parser (~30 ms of a pull).
    data = text === '' ? null : (require('yaml') as typeof import('yaml')).parse(text);
  } catch (err) {
    throw new DocsError('invalid', `${CONFIG_FILE}: not valid YAML (${(err as Error).message.split('\n')[0]}); nothing was sent`);
  }
  if (data === null || data === undefined) data = {};
  if (typeof data !== 'object' || Array.isArray(data))
    throw new DocsError('invalid', `${CONFIG_FILE}: must be a mapping of root, structure and redirects; nothing was sent`);
  const unknown = Object.keys(data).filter((k) => !KNOWN.includes(k));
  const structure = data.structure ?? {};
  if (typeof structure !== 'object' || Array.isArray(structure))
    throw new DocsError('invalid', `${CONFIG_FILE}: structure must be a mapping of readme and summary; nothing was sent`);
  unknown.push(
    ...Object.keys(structure)
      .filter((k) => !KNOWN_STRUCTURE.includes(k))
      .map((k) => `structure.${k}`),
  );
  const redirects: Record<string, string> = {};
  const r = data.redirects ?? {};
  if (typeof r !== 'object' || Array.isArray(r))
    throw new DocsError('invalid', `${CONFIG_FILE}: redirects must be a mapping of old path to file (previous/page: new-folder/page.md); nothing was sent`);
  for (const [from, to] of Object.entries(r)) {
    if (typeof to !== 'string' || !to) throw new DocsError('invalid', `${CONFIG_FILE}: redirects.${from} must be a file path (a string); nothing was sent`);
    redirects[from] = to;
  }
  const warnings = unknown.length
    ? [
        `${CONFIG_FILE}: unknown key${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')} (known: root, structure.readme, structure.summary, redirects); ignored`,
      ]
    : [];
  return {
    root: data.root === undefined ? '' : inside(data.root, 'root', true),
    summary: structure.summary === undefined ? 'SUMMARY.md' : inside(structure.summary, 'structure.summary'),
    readme: structure.readme === undefined ? 'README.md' : inside(structure.readme, 'structure.readme'),
    redirects,
    text,
    warnings,
  };
}

const within = (root: string, real: string) => {
  const r = relative(root, real);
  return r === '' || (r !== '..' && !r.startsWith(`..${sep}`) && !isAbsolute(r));
};

/** DIR's configuration (defaults when it has no `.gitbook.yaml`); its root must be a folder inside DIR. */
export function readRepoConfig(dir: string): RepoConfig {
  const file = join(dir, CONFIG_FILE);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new DocsError('invalid', `DIR: ${dir} is not a folder`);
  if (!existsSync(file)) return { root: '', summary: 'SUMMARY.md', readme: 'README.md', redirects: {}, warnings: [] };
  const real = realpathSync(dir);
  if (lstatSync(file).isSymbolicLink() && !within(real, realpathSync(file)))
    throw new DocsError('invalid', `${CONFIG_FILE}: leads outside ${dir}; push reads only files inside the folder; nothing was sent`);
  if (!statSync(file).isFile()) throw new DocsError('invalid', `${CONFIG_FILE}: not a regular file; nothing was sent`);
  const config = parseRepoConfig(readFileSync(file, 'utf8'));
  if (config.root) {
    const at = join(dir, config.root);
    if (!existsSync(at) || !statSync(at).isDirectory())
      throw new DocsError('invalid', `${CONFIG_FILE}: root ${config.root} is not a folder in ${dir}; nothing was sent`);
    if (!within(real, realpathSync(at)))
      throw new DocsError('invalid', `${CONFIG_FILE}: root ${config.root} leads outside ${dir} (through a symbolic link); nothing was sent`);
  }
  return config;
}
