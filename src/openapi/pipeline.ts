import { createHash } from 'node:crypto';
import { FetchFailure, guardedFetch, type FetchLimits } from './fetch.js';
import type { ProcessError, ProcessErrorCode } from './model.js';
import { MAX_ERRORS, ParseFailure, parseText } from './parse-text.js';

export { ParseFailure, parseText } from './parse-text.js';

// Turns a spec's source into the documents of a version: fetch (URL) or take the text, parse it
// as JSON or YAML 1.2, resolve external $refs (through the same fetch guard; a ref that cannot be
// resolved is an error), and validate it as Swagger 2.0 / OpenAPI 3.x with @readme/openapi-parser.
// The parsers are loaded on first use, never at CLI start-up.

export type Outcome =
  | { ok: true; filesystem: string; files: string[]; hash: string; url?: string; raw: { text: string; format: 'json' | 'yaml' } }
  | { ok: false; errorCode: ProcessErrorCode; errors: ProcessError[]; errorCount: number };

export interface Source {
  url?: string;
  text?: string;
}

const MAX_EXTERNAL_FILES = 100;

/** The name of the root file in `filesystem`: the URL's file name, or openapi.json / .yaml. */
function rootName(source: Source, text: string): string {
  if (source.url) {
    const base = decodeURIComponent(new URL(source.url).pathname.split('/').pop() ?? '');
    if (base && base !== '.' && base !== '..') return base;
  }
  return /^\s*[{[]/.test(text.replace(/^\ufeff/, '')) ? 'openapi.json' : 'openapi.yaml';
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text.replace(/^\ufeff/, ''));
    return true;
  } catch {
    return false;
  }
}

function hasExternalRef(v: unknown): boolean {
  const stack: unknown[] = [v];
  while (stack.length) {
    const x = stack.pop();
    if (Array.isArray(x)) stack.push(...x);
    else if (x && typeof x === 'object') {
      for (const [k, child] of Object.entries(x)) {
        if (k === '$ref' && typeof child === 'string' && !child.startsWith('#')) return true;
        if (child && typeof child === 'object') stack.push(child);
      }
    }
  }
  return false;
}

/** A file's name in `filesystem`: its path relative to the root's folder, else its full URL. */
function fileName(rootUrl: string, url: string): string {
  try {
    const root = new URL(rootUrl);
    const u = new URL(url);
    const dir = root.pathname.slice(0, root.pathname.lastIndexOf('/') + 1);
    if (u.origin === root.origin && u.pathname.startsWith(dir) && !u.search) return decodeURIComponent(u.pathname.slice(dir.length));
  } catch {}
  return url;
}

// A text source has no URL: relative references get this base, which no resolver reads.
const TEXT_BASE = 'docs-text:///';

/**
 * Resolves external $refs (bundling them into the root, which is what gets validated) and
 * returns each external file's JSON text by name. Relative refs of a text source cannot be
 * resolved: there is no location they are relative to.
 */
async function bundleExternal(
  root: any,
  rootUrl: string,
  rootFile: string,
  limits: FetchLimits | undefined,
  signal: AbortSignal | undefined,
): Promise<Map<string, string>> {
  const { $RefParser } = await import('@apidevtools/json-schema-ref-parser');
  const files = new Map<string, string>();
  // The ref parser keeps only "Error reading file <url>": remember why each read failed.
  const why = new Map<string, string>();
  const parser = new $RefParser();
  try {
    await parser.bundle(rootUrl, root, {
      continueOnError: true,
      resolve: {
        file: false,
        http: false,
        guarded: {
          order: 1,
          canRead: true,
          read: async (file: { url: string }) => {
            try {
              if (file.url.startsWith(TEXT_BASE)) {
                throw new Error(
                  `${file.url.slice(TEXT_BASE.length - 1)}: a spec sent as text has no location for relative references (send it by URL, or bundle it into one file)`,
                );
              }
              if (files.size >= MAX_EXTERNAL_FILES) throw new Error(`${file.url}: more than ${MAX_EXTERNAL_FILES} referenced files`);
              return (await guardedFetch(file.url, { limits, signal })).text;
            } catch (err) {
              why.set(file.url, (err as Error).message);
              throw err;
            }
          },
        },
      },
      parse: {
        json: false,
        yaml: false,
        text: false,
        binary: false,
        docs: {
          order: 1,
          canParse: true,
          allowEmpty: false,
          parse: async (file: { url: string; data: Buffer | string }) => {
            const name = fileName(rootUrl, file.url);
            const doc = await parseText(file.data.toString(), name);
            files.set(name, JSON.stringify(doc));
            return doc;
          },
        },
      },
    } as any);
  } catch (err: any) {
    if (signal?.aborted) throw err;
    const list: any[] = Array.isArray(err?.errors) ? err.errors : [err];
    throw new ParseFailure(
      list.slice(0, MAX_ERRORS).map((e) => {
        const url = /"([^"]+)"/.exec(String(e?.message))?.[1];
        const inner = e instanceof ParseFailure ? e.errors[0]!.message : ((url && why.get(url)) ?? e?.message ?? String(e));
        const at = Array.isArray(e?.path) ? '/' + (e.path as string[]).map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/') : 'document';
        return { message: `${rootFile}: ${at}: cannot resolve $ref: ${inner}`, code: 'UNRESOLVED_REF' };
      }),
      list.length,
    );
  }
  return files;
}

/**
 * The JSON pointer of the value that starts on `line` of `JSON.stringify(data, null, 2)`.
 * The validator shows schema errors as a code frame of that text; this turns its line number
 * back into a location in the document.
 */
export function pointerAtLine(data: unknown, line: number): string | undefined {
  let current = 1;
  let found: string | undefined;
  const esc = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');
  const walk = (v: any, ptr: string): void => {
    if (found !== undefined) return;
    if (current === line) found = ptr;
    if (v && typeof v === 'object' && typeof v.toJSON !== 'function') {
      const entries = Array.isArray(v)
        ? v.map((x, i) => [String(i), x] as const)
        : Object.entries(v).filter(([, x]) => x !== undefined && typeof x !== 'function');
      if (entries.length === 0) return;
      for (const [k, x] of entries) {
        current++;
        walk(x, `${ptr}/${esc(k)}`);
        if (found !== undefined || current > line) return;
      }
      current++; // the closing bracket
    }
  };
  walk(data, '');
  return found === '' ? '/' : found;
}

/** Turns one message of @readme/openapi-parser into `{message: "file: location: text", code}`. */
function validatorError(rootFile: string, message: string, validated: unknown): ProcessError {
  const [first = message] = message.split('\n');
  const frame = /^>\s*(\d+) \|/m.exec(message);
  const kw = /^([A-Z]+) (.*)$/.exec(first);
  let where = 'document';
  if (frame) where = pointerAtLine(validated, Number(frame[1])) ?? where;
  else {
    const inline = /`(\/[^`]*)`/.exec(first); // spec rule messages name the path: `/paths/a/{x}/get`
    if (inline) where = inline[1]!;
  }
  return { message: `${rootFile}: ${where}: ${kw ? kw[2] : first}`, code: kw ? kw[1]!.toLowerCase() : 'INVALID' };
}

/**
 * The last outcome of a text whose spec has no external $ref, which is a function of the text
 * alone: an in-process `openapi put --file --wait` checks its file before sending it
 * (commands/openapi/put.ts), then its own job processes the same text, which for the 1.7 MB GitBook
 * spec was ~0.4 s of dereferencing and validating again. Kept for a while only: a server holds no
 * spec's text for longer than the put that brought it.
 */
let recent: { text: string; outcome: Outcome } | undefined;
let forget: NodeJS.Timeout | undefined;
const KEPT_MS = 30_000;

/** Processes a source into an outcome; throws only when `signal` aborts it. */
export async function processSource(source: Source, opts: { limits?: FetchLimits; signal?: AbortSignal } = {}): Promise<Outcome> {
  if (source.url === undefined && recent !== undefined && recent.text === (source.text ?? '')) return recent.outcome;
  const read = { external: false };
  const outcome = Object.freeze(await processOnce(source, opts, read));
  if (source.url === undefined && outcome.ok && !read.external) {
    recent = { text: source.text ?? '', outcome };
    clearTimeout(forget);
    forget = setTimeout(() => (recent = undefined), KEPT_MS).unref();
  }
  return outcome;
}

/** `read.external`: whether it read more than the source (external $refs). */
async function processOnce(source: Source, opts: { limits?: FetchLimits; signal?: AbortSignal }, read: { external: boolean }): Promise<Outcome> {
  let text: string;
  let finalUrl: string | undefined;
  if (source.url !== undefined) {
    try {
      const got = await guardedFetch(source.url, opts);
      text = got.text;
      finalUrl = got.url;
    } catch (err) {
      if (err instanceof FetchFailure) return { ok: false, errorCode: err.code, errors: [{ message: err.message, code: err.code }], errorCount: 1 };
      throw err;
    }
  } else text = source.text ?? '';
  const root = rootName({ url: finalUrl }, text);
  try {
    const doc: any = await parseText(text, root);
    if (!doc || typeof doc !== 'object' || Array.isArray(doc))
      throw new ParseFailure([{ message: `${root}: document: not an OpenAPI document (the top level must be an object)`, code: 'NOT_OPENAPI' }]);
    const isOpenAPI3 = typeof doc.openapi === 'string' && /^3\.\d+(\.\d+)?/.test(doc.openapi);
    const isSwagger2 = doc.swagger === '2.0';
    if (!isOpenAPI3 && !isSwagger2) {
      throw new ParseFailure([
        { message: `${root}: /: not an OpenAPI 3.x or Swagger 2.0 document (needs "openapi": "3.x.y" or "swagger": "2.0")`, code: 'NOT_OPENAPI' },
      ]);
    }
    // Serialized now: validation dereferences the object in place.
    const parts: [string, string][] = [[root, JSON.stringify(doc)]];
    if (hasExternalRef(doc)) {
      read.external = true;
      const external = await bundleExternal(doc, finalUrl ?? TEXT_BASE + root, root, opts.limits, opts.signal);
      for (const [name, json] of external) if (name !== root) parts.push([name, json]);
    }
    const [{ validate }, { shareMetaSchemaCompiles }] = await Promise.all([import('@readme/openapi-parser'), import('./meta-schema.js')]);
    await shareMetaSchemaCompiles();
    let result;
    try {
      result = await validate(doc, { resolve: { external: false, file: false }, validate: { errors: { colorize: false } } });
    } catch (err) {
      throw new ParseFailure([{ message: `${root}: document: ${(err as Error).message}`, code: 'INVALID' }]);
    }
    if (!result.valid) {
      const errors = result.errors.slice(0, MAX_ERRORS).map((e) => validatorError(root, e.message, doc));
      const more = result.additionalErrors + Math.max(0, result.errors.length - MAX_ERRORS);
      if (more > 0) errors.push({ message: `${root}: document: ${more} more errors not shown`, code: 'MORE' });
      throw new ParseFailure(errors, result.errors.length + result.additionalErrors);
    }
    const filesystem = '{' + parts.map(([name, json]) => `${JSON.stringify(name)}:${json}`).join(',') + '}';
    // The entrypoint as submitted: JSON when it parses as JSON (YAML is a superset of it), else YAML.
    const format = isJson(text) ? 'json' : 'yaml';
    return {
      ok: true,
      filesystem,
      files: parts.map(([n]) => n),
      hash: createHash('sha256').update(filesystem).digest('hex'),
      url: finalUrl,
      raw: { text, format },
    };
  } catch (err) {
    if (err instanceof ParseFailure) return { ok: false, errorCode: 'PARSE_ERROR', errors: err.errors, errorCount: err.total };
    if (opts.signal?.aborted) throw err;
    return { ok: false, errorCode: 'PARSE_ERROR', errors: [{ message: `${root}: document: ${(err as Error).message}`, code: 'INVALID' }], errorCount: 1 };
  }
}
