import type { ProcessError } from './model.js';

// Parsing one file of a spec, JSON or YAML 1.2, with the line and column of the first error:
// shared by the spec pipeline (./pipeline.ts) and `docs openapi diff` (./diff/load.ts), which
// imports it alone, without the pipeline's fetch guard (node:dns, node:net) and node:crypto,
// none of which a diff of two files needs (issue 30).

/** A failure of the document itself (PARSE_ERROR), with every error found. */
export class ParseFailure extends Error {
  /** `errors` is cut at MAX_ERRORS; `total` counts every error found (0.202.0's lastProcessedErrorCount). */
  constructor(
    readonly errors: ProcessError[],
    readonly total = errors.length,
  ) {
    super(errors[0]?.message ?? 'invalid document');
  }
}

export const MAX_ERRORS = 50;

/** "line 3, column 5" of a character offset. */
function lineCol(text: string, offset: number): string {
  let line = 1;
  let last = -1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    last = i;
  }
  return `line ${line}, column ${offset - last}`;
}

let yamlLib: typeof import('yaml') | undefined;
let jsYaml: typeof import('js-yaml') | undefined;

/**
 * Texts whose document js-yaml and `yaml` could make differently, which `yaml` alone reads: a
 * directive (`%YAML 1.1`) and a tag (`!!float 1` is 1 to js-yaml and "1" to `yaml`; `!Custom`
 * tags). The pattern over-matches on purpose (`if ! a` in prose): a false match costs speed,
 * never a different document. It is linear in the text: each alternative is of fixed width (a
 * pattern that looked for null keys, `[\s…][ \t]*:`, rescanned every run of blanks from each of
 * its characters: 0.55 s for 40,000 spaces, hours for a 16 MB body).
 */
const MAYBE_DIFFERENT = /^%|(?:^|[\s[{,:])!(?!=)/m;

/**
 * Whether a document of js-yaml's has a key "null" anywhere: what js-yaml makes of a null key
 * (`null:`, `~:`, an empty key), which `yaml` makes "" of. A quoted "null" key (the same to both)
 * goes to `yaml` too. Recursive: js-yaml's maxDepth (100) bounds the depth.
 */
function hasNullKey(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) return v.some(hasNullKey);
  return Object.hasOwn(v, 'null') || Object.values(v).some(hasNullKey);
}

/**
 * Collections nested deeper than this are refused before `yaml` reads a text: it recurses per
 * level and overflows the stack from ~900 levels (flow) or ~1,200 (block), and a later parse in
 * the same process then aborted it (V8's regular-expression compiler, "out of memory"): two puts
 * of such a spec ended `docs serve`. Specs nest a few dozen levels. js-yaml, which reads a text
 * first, counts the levels (its parser does not recurse per level).
 */
export const MAX_NESTING = 256;

type JsYamlError = Error & { reason?: string; mark?: { line: number; column: number; position: number } };
const tooDeep = (e: unknown): e is JsYamlError => (e as JsYamlError)?.reason?.startsWith('nesting exceeded maxDepth') === true;
const nestingFailure = (name: string, e: JsYamlError) =>
  new ParseFailure([
    { message: `${name}: line ${e.mark!.line + 1}, column ${e.mark!.column + 1}: collections nested deeper than ${MAX_NESTING} levels`, code: 'NESTING' },
  ]);

/**
 * A YAML text's document read by js-yaml, or undefined for `yaml` to read it; a ParseFailure
 * when it nests deeper than MAX_NESTING. js-yaml builds a 1.2 MB spec (GitBook's) 4-5x faster
 * than `yaml`'s parseDocument, with a fifth of its garbage: `openapi diff` of two YAML specs spent
 * ~80% of its CPU in `yaml` and its GC. Both read YAML 1.2 with the core schema (no merge keys);
 * test/openapi/parse-text.test.ts checks that they give the same document. `yaml` keeps whatever
 * js-yaml refuses: errors (its messages carry the line and column), aliases (`maxAliases: 0`:
 * js-yaml shares an alias's node, where `yaml`'s maxAliasCount bounds what an alias bomb expands
 * to), several documents or none.
 */
export async function fastYaml(text: string, name = 'document'): Promise<unknown> {
  if (MAYBE_DIFFERENT.test(text)) return undefined;
  jsYaml ??= await import('js-yaml');
  let doc: unknown;
  try {
    doc = jsYaml.load(text, { schema: jsYaml.CORE_SCHEMA, maxAliases: 0, maxDepth: MAX_NESTING });
  } catch (e) {
    if (tooDeep(e)) throw nestingFailure(name, e);
    return undefined;
  }
  return hasNullKey(doc) ? undefined : doc;
}

/**
 * What of a YAML text `yaml` may read: js-yaml's parser reads it all first (syntax only: no tag
 * resolved, no alias followed), refusing it past MAX_NESTING. At its first syntax error, only the
 * text to the end of that line: `yaml` names the error(s) there and never reads the rest, which
 * could nest deeper (`cut` carries js-yaml's error, in case `yaml` finds none there).
 */
async function yamlReadable(text: string, name: string): Promise<{ text: string; cut?: ProcessError }> {
  jsYaml ??= await import('js-yaml');
  try {
    jsYaml.parseEvents(text, { maxDepth: MAX_NESTING });
    return { text };
  } catch (e) {
    if (tooDeep(e)) throw nestingFailure(name, e);
    const err = e as JsYamlError;
    if (!err.mark) throw e;
    const end = text.indexOf('\n', err.mark.position);
    return {
      text: end < 0 ? text : text.slice(0, end + 1),
      cut: { message: `${name}: line ${err.mark.line + 1}, column ${err.mark.column + 1}: ${err.reason ?? err.message}`, code: 'YAML' },
    };
  }
}

/** Parses one file's text; JSON when it looks like JSON (much faster), else YAML 1.2. */
export async function parseText(text: string, name: string): Promise<unknown> {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (/^\s*[{[]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch (err) {
      const m = /position (\d+)/.exec((err as Error).message);
      const where = m ? lineCol(text, Number(m[1])) : 'document';
      throw new ParseFailure([{ message: `${name}: ${where}: ${(err as Error).message.replace(/ in JSON at position \d+.*$/, '')}`, code: 'JSON_SYNTAX' }]);
    }
  }
  const fast = await fastYaml(text, name);
  if (fast !== undefined) return fast;
  const readable = await yamlReadable(text, name);
  yamlLib ??= await import('yaml');
  // YAML 1.2 core schema: `no`, `on`, `y` stay strings (a language code `no` is not false).
  const doc = yamlLib.parseDocument(readable.text, { version: '1.2', schema: 'core', uniqueKeys: true, prettyErrors: true });
  if (doc.errors.length) {
    throw new ParseFailure(
      doc.errors.slice(0, MAX_ERRORS).map((e) => ({
        message: `${name}: ${e.linePos ? `line ${e.linePos[0].line}, column ${e.linePos[0].col}` : 'document'}: ${e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`,
        code: e.code,
      })),
      doc.errors.length,
    );
  }
  // A text cut at js-yaml's syntax error that `yaml` reads without one: never a part of a document.
  if (readable.cut) throw new ParseFailure([readable.cut]);
  try {
    return doc.toJS({ maxAliasCount: 1000 });
  } catch (err) {
    throw new ParseFailure([{ message: `${name}: document: ${(err as Error).message}`, code: 'YAML' }]);
  }
}
