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
