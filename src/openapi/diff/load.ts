import { isAscii } from 'node:buffer';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { invalid } from '../../kernel/errors.js';
import { ParseFailure, parseText } from '../parse-text.js';
import { externalRefs, mayReferOutside, type SpecFiles } from './resolve.js';

// The two sides of `docs openapi diff` (and the new side of `put --fail-on-breaking`): a local
// file (its relative $refs read from beside it), an http(s) URL (fetched through the same
// outbound guard as the server's spec fetches, its relative $refs too), or a stored spec,
// `SPEC` (latest version) or `SPEC@VERSION`. Documents are parsed, not validated: a diff of
// two 1.7 MB specs must stay quick, and `docs openapi lint` is there for validity.

const MAX_FILES = 100;

export interface LoadedSpec extends SpecFiles {
  /** What the user gave, for messages. */
  label: string;
  /** The local path, when it is a file. */
  path?: string;
}

/**
 * Reads a stored version (`version`: an id or `latest`): its files, and the URL the contract
 * gives its content at (another server may answer with the URL only, an empty filesystem).
 */
export type StoredReader = (slug: string, version: string) => Promise<{ files: Record<string, unknown>; url?: string }>;

// Most specs are ASCII (JSON escapes the rest): decoded as latin1 then, twice as quick as UTF-8.
const decode = (bytes: Buffer) => bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');

const isUrl = (s: string) => /^https?:\/\//i.test(s);
const STORED = /^([a-z0-9]+(?:-[a-z0-9]+)*)(?:@([A-Za-z0-9_-]+))?$/;

function checkOpenAPI(doc: unknown, name: string): void {
  const d = doc as any;
  if (!d || typeof d !== 'object' || Array.isArray(d) || !((typeof d.openapi === 'string' && /^3\./.test(d.openapi)) || d.swagger === '2.0')) {
    throw invalid(`${name}: line 1, column 1: not an OpenAPI 3.x or Swagger 2.0 document (needs "openapi": "3.x.y" or "swagger": "2.0")`);
  }
}

async function parse(text: string, name: string): Promise<unknown> {
  try {
    return await parseText(text, name);
  } catch (err) {
    if (err instanceof ParseFailure) throw invalid(err.errors.map((e) => e.message).join('\n'));
    throw err;
  }
}

/**
 * Loads the root and every file it references (breadth first, at most 100 files). `firstLocal`:
 * every $ref of the root is local (mayReferOutside of its text false), no walk for others.
 */
async function withReferences(root: string, first: unknown, firstLocal: boolean, read: (name: string) => Promise<string>): Promise<Record<string, unknown>> {
  const files: Record<string, unknown> = { [root]: first };
  const todo = firstLocal ? [] : externalRefs(first, root);
  while (todo.length) {
    const name = todo.shift()!;
    if (name in files) continue;
    if (Object.keys(files).length >= MAX_FILES) throw invalid(`${root}: more than ${MAX_FILES} referenced files`);
    const text = await read(name);
    const doc = await parse(text, name);
    files[name] = doc;
    todo.push(...externalRefs(doc, name, text));
  }
  return files;
}

async function fetchText(url: string): Promise<{ text: string; url: string }> {
  // The fetch guard (node:dns, node:net) only for a URL: a diff of two files never loads it.
  const { FetchFailure, guardedFetch } = await import('../fetch.js');
  try {
    return await guardedFetch(url);
  } catch (err) {
    if (err instanceof FetchFailure) throw invalid(err.message);
    throw err;
  }
}

/** A side that is a local file: its name beside its folder's, its bytes and text. */
export interface LocalFile {
  /** The file's folder: its relative $refs are read from there. */
  base: string;
  /** Its name relative to `base`: the root's name in `files`. */
  name: string;
  bytes: Buffer;
  text: string;
  /** mayReferOutside(text), read once: by the loader and the CLI's cache. */
  refersOutside: boolean;
}

function readBytes(base: string, file: string): Buffer {
  try {
    return readFileSync(join(base, file));
  } catch (err) {
    throw invalid(`${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

/** The side `arg` read when it is a local file (not a URL, and a file by that name exists); else undefined. */
export function readLocal(arg: string): LocalFile | undefined {
  if (isUrl(arg) || !existsSync(arg)) return undefined;
  // Names relative to the root's folder, so that `a.yaml#/X` from `api/root.yaml` is `api/a.yaml`.
  const base = dirname(arg);
  const name = relative(base, arg);
  const bytes = readBytes(base, name);
  const text = decode(bytes);
  return { base, name, bytes, text, refersOutside: mayReferOutside(text) };
}

/** `local`: the side already read by readLocal (a file read once). */
export async function loadSpec(arg: string, stored: StoredReader, local?: LocalFile): Promise<LoadedSpec> {
  if (isUrl(arg)) {
    const got = await fetchText(arg);
    const doc = await parse(got.text, got.url);
    checkOpenAPI(doc, got.url);
    return {
      label: arg,
      root: got.url,
      files: await withReferences(got.url, doc, !mayReferOutside(got.text), async (name) => (await fetchText(name)).text),
    };
  }
  const file = local ?? readLocal(arg);
  if (file) {
    const doc = await parse(file.text, arg);
    checkOpenAPI(doc, arg);
    return {
      label: arg,
      path: arg,
      root: file.name,
      files: await withReferences(file.name, doc, !file.refersOutside, async (f) => decode(readBytes(file.base, f))),
    };
  }
  const m = STORED.exec(arg);
  if (!m) throw invalid(`${arg}: not a file, an http(s) URL or a stored spec (SPEC or SPEC@VERSION)`);
  const { files, url } = await stored(m[1]!, m[2] ?? 'latest');
  const root = Object.keys(files)[0];
  if (root === undefined) {
    if (url && isUrl(url)) return { ...(await loadSpec(url, stored)), label: arg };
    throw invalid(`${arg}: the stored version has no files`);
  }
  return { label: arg, root, files };
}
