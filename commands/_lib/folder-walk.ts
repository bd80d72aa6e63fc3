import { readdirSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { DocsError } from '../../src/kernel/errors.js';

// What `docs content push` may read: regular files whose real path (symbolic links resolved) is
// inside the folder's real path. In CI, whoever edits SUMMARY.md or commits a symbolic link
// must not publish the runner's files (/etc/passwd, ~/.ssh, the CI secrets): a path or a link
// leading outside is refused (exit 2, nothing sent), never followed.

export interface Folder {
  /** The folder as given (for messages). */
  dir: string;
  /** Its real path: what "inside" is measured against. */
  real: string;
}

export function openFolder(dir: string): Folder {
  return { dir, real: realpathSync(dir) };
}

const within = (root: string, real: string) => {
  const r = relative(root, real);
  return r === '' || (r !== '..' && !r.startsWith(`..${sep}`) && !isAbsolute(r));
};

/**
 * The real path of `rel` (relative to the folder) when it is a regular file inside the folder;
 * otherwise a refusal (exit 2) that starts with `where` (what pointed at it).
 */
export function regularFile(folder: Folder, rel: string, where: string): string {
  let real: string;
  try {
    real = realpathSync(join(folder.dir, rel));
  } catch {
    throw new DocsError('invalid', `${where}: ${rel} does not exist in ${folder.dir}`);
  }
  if (!within(folder.real, real))
    throw new DocsError(
      'invalid',
      `${where}: ${rel} is outside ${folder.dir} (its real path is ${real}); push reads only files inside the folder; nothing was sent`,
    );
  if (!statSync(real).isFile()) throw new DocsError('invalid', `${where}: ${rel} is not a regular file; nothing was sent`);
  return real;
}

export interface Entry {
  /** The path in the folder (`/`-separated), as the folder shows it. */
  rel: string;
  name: string;
  /** A regular file's real path (what is read). */
  real: string;
}

export interface Walk {
  /** Regular files (symbolic links to files inside the folder included), by folder. */
  files: Map<string, Entry[]>;
  /** Sub-folders, by folder (real folders only: links to folders are not followed). */
  dirs: Map<string, Entry[]>;
  /** What was left out, one line each (links to folders, sockets, ...). */
  notes: string[];
}

/**
 * The folder's tree, once: dot entries left out except `.gitbook` (GitBook's assets folder) and
 * what it holds. A symbolic link is resolved: to a file inside, it is that file; to a folder
 * inside, it is not followed (loops; noted); outside, or dangling, the push is refused.
 */
export function walkFolder(folder: Folder): Walk {
  const walk: Walk = { files: new Map(), dirs: new Map(), notes: [] };
  // An entry's path: the folder's, normalized once, and the entry's (names from readdir hold no
  // separator, and are never . or ..): what join() gives, without normalizing each of a
  // 2,000-page folder's paths again.
  const base = join(folder.dir, '.');
  const prefix = base === '.' ? '' : base.endsWith(sep) ? base : base + sep;
  const visit = (rel: string) => {
    const files: Entry[] = [];
    const dirs: Entry[] = [];
    for (const e of readdirSync(join(folder.dir, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.name.startsWith('.') && p !== '.gitbook' && !p.startsWith('.gitbook/')) continue;
      const abs = prefix + (sep === '/' ? p : p.replaceAll('/', sep));
      if (e.isDirectory()) dirs.push({ rel: p, name: e.name, real: abs });
      else if (e.isFile()) files.push({ rel: p, name: e.name, real: abs });
      else if (e.isSymbolicLink()) {
        let real: string;
        try {
          real = realpathSync(abs);
        } catch {
          throw new DocsError('invalid', `${p}: a symbolic link to nothing (or to a loop); remove it or point it at a file in ${folder.dir}; nothing was sent`);
        }
        if (!within(folder.real, real))
          throw new DocsError('invalid', `${p}: a symbolic link to ${real}, outside ${folder.dir}; push reads only files inside the folder; nothing was sent`);
        const st = statSync(real);
        if (st.isFile()) files.push({ rel: p, name: e.name, real });
        else walk.notes.push(`${p}: a symbolic link to a folder, not followed`);
      } else walk.notes.push(`${p}: not a regular file, left out`);
    }
    walk.files.set(rel, files);
    walk.dirs.set(rel, dirs);
    for (const d of dirs) visit(d.rel);
  };
  visit('');
  return walk;
}
