// $ref resolution over the files of one spec (a version's `filesystem`: root file first, then
// the files it references), lazily: the diff follows only the references it reaches, so a
// large spec is never dereferenced as a whole. References are `#/pointer` within a file or
// `other.yaml#/pointer` relative to the referring file's folder (or an absolute URL).

export interface SpecFiles {
  /** The root document's name in `files`. */
  root: string;
  files: Record<string, unknown>;
}

export interface Resolved {
  node: any;
  file: string;
  /** `file#pointer` of the last reference followed; undefined when `node` was not a reference. */
  key?: string;
}

function unescape(part: string): string {
  // Most parts have nothing to decode (`components`, `schemas`, a name).
  if (part.indexOf('%') === -1 && part.indexOf('~') === -1) return part;
  return decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
}

function joinName(from: string, rel: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(rel)) return rel;
  if (/^[a-z][a-z0-9+.-]*:/i.test(from)) {
    try {
      return new URL(rel, from).href;
    } catch {
      return rel;
    }
  }
  const parts = from.split('/').slice(0, -1);
  for (const p of rel.split('/')) {
    if (p === '..') parts.pop();
    else if (p !== '.' && p !== '') parts.push(p);
  }
  return parts.join('/');
}

/** The value at a JSON pointer of a document, or undefined. */
export function atPointer(doc: unknown, pointer: string): unknown {
  let node: any = doc;
  // The parts after the first `/` (pointer.split('/').slice(1)), read in place: no arrays made.
  for (let start = pointer.indexOf('/'); start !== -1; ) {
    const end = pointer.indexOf('/', start + 1);
    const raw = pointer.slice(start + 1, end === -1 ? pointer.length : end);
    if (node === null || typeof node !== 'object') return undefined;
    node = node[unescape(raw)];
    start = end;
  }
  return node;
}

export class Resolver {
  /**
   * Where each `$ref` leads, by the file it is in, then its text: the files do not change during
   * a diff. Two maps, not one keyed by both: no key to build for each reference met (issue 30).
   */
  private readonly followed = new Map<string, Map<string, Resolved>>();

  constructor(readonly spec: SpecFiles) {}

  get root(): any {
    return this.spec.files[this.spec.root];
  }

  /** `resolve(node, file).node`, with no object made for a node that is not a reference. */
  nodeOf(node: any, file: string): any {
    return node && typeof node === 'object' && typeof node.$ref === 'string' ? this.resolve(node, file).node : node;
  }

  /** Follows `$ref`s (at most 32 in a row) from `node` found in `file`. */
  resolve(node: any, file: string): Resolved {
    if (!node || typeof node !== 'object' || typeof node.$ref !== 'string') return { node, file };
    let inFile = this.followed.get(file);
    if (!inFile) this.followed.set(file, (inFile = new Map()));
    const ref: string = node.$ref;
    let got = inFile.get(ref);
    if (!got) inFile.set(ref, (got = this.follow(node, file)));
    return got;
  }

  private follow(node: any, file: string): Resolved {
    let key: string | undefined;
    for (let i = 0; i < 32 && node && typeof node === 'object' && typeof node.$ref === 'string'; i++) {
      const ref: string = node.$ref;
      const hash = ref.indexOf('#');
      const target = hash === 0 ? file : joinName(file, hash === -1 ? ref : ref.slice(0, hash));
      const pointer = hash === -1 ? '' : ref.slice(hash + 1);
      key = `${target}#${pointer}`;
      file = target;
      node = atPointer(this.spec.files[target], pointer);
    }
    return { node, file, key };
  }
}

/**
 * Whether a file's text may reference another file: false when every `$ref` in it is local
 * (`#/...`). (The lookahead takes the spaces and the optional quote with it: `"$ref": "#/x"` is a
 * local reference; with `\s*` outside it, the regex backtracked to zero spaces and every
 * pretty-printed local reference matched, so the walk ran on every spec.)
 */
export const mayReferOutside = (text: string) => /\$ref['"]?\s*:(?!\s*['"]?#)/.test(text);

/** Names of the files a document references (relative to `file`), for loading them first. */
export function externalRefs(doc: unknown, file: string, text?: string): string[] {
  // Most specs are one file: when the text has no reference outside itself, skip the walk.
  if (text !== undefined && !mayReferOutside(text)) return [];
  const out = new Set<string>();
  const stack: unknown[] = [doc];
  while (stack.length) {
    const x = stack.pop();
    if (Array.isArray(x)) {
      for (const v of x) if (v && typeof v === 'object') stack.push(v);
    } else if (x && typeof x === 'object') {
      for (const [k, v] of Object.entries(x)) {
        if (k === '$ref' && typeof v === 'string' && !v.startsWith('#')) out.add(joinName(file, v.split('#')[0]!));
        else if (v && typeof v === 'object') stack.push(v);
      }
    }
  }
  return [...out];
}
