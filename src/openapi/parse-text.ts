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
 * directive (`%YAML 1.1`), a tag (`!!float 1` is 1 to js-yaml and "1" to `yaml`; `!Custom` tags)
 * and a null key (`null:`, `~:`, an empty key: "null" to js-yaml, "" to `yaml`). The patterns
 * over-match on purpose (`x : y`, `if ! a` in prose): a false match costs speed, never a
 * different document.
 */
const MAYBE_DIFFERENT = /^%|(?:^|[\s[{,:])!(?!=)|(?:^|[\s{,?-])(?:~|null|Null|NULL)?[ \t]*:(?:[ \t\r\n]|$)/m;

/**
 * A YAML text's document read by js-yaml, or undefined for `yaml` to read it. js-yaml builds a
 * 1.2 MB spec (GitBook's) 4-5x faster than `yaml`'s parseDocument, with a fifth of its garbage:
 * `openapi diff` of two YAML specs spent ~80% of its CPU in `yaml` and its GC. Both read YAML 1.2
 * with the core schema (no merge keys); test/openapi/parse-text.test.ts checks that they give the
 * same document. `yaml` keeps whatever js-yaml refuses: errors (its messages carry the line and
 * column), aliases (`maxAliases: 0`: js-yaml shares an alias's node, where `yaml`'s
 * maxAliasCount bounds what an alias bomb expands to), nesting past js-yaml's depth of 100,
 * several documents or none.
 */
export async function fastYaml(text: string): Promise<unknown> {
  if (MAYBE_DIFFERENT.test(text)) return undefined;
  jsYaml ??= await import('js-yaml');
  try {
    return jsYaml.load(text, { schema: jsYaml.CORE_SCHEMA, maxAliases: 0 });
  } catch {
    return undefined;
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
  const fast = await fastYaml(text);
  if (fast !== undefined) return fast;
  yamlLib ??= await import('yaml');
  // YAML 1.2 core schema: `no`, `on`, `y` stay strings (a language code `no` is not false).
  const doc = yamlLib.parseDocument(text, { version: '1.2', schema: 'core', uniqueKeys: true, prettyErrors: true });
  if (doc.errors.length) {
    throw new ParseFailure(
      doc.errors.slice(0, MAX_ERRORS).map((e) => ({
        message: `${name}: ${e.linePos ? `line ${e.linePos[0].line}, column ${e.linePos[0].col}` : 'document'}: ${e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`,
        code: e.code,
      })),
      doc.errors.length,
    );
  }
  try {
    return doc.toJS({ maxAliasCount: 1000 });
  } catch (err) {
    throw new ParseFailure([{ message: `${name}: document: ${(err as Error).message}`, code: 'YAML' }]);
  }
}
