import type { ProcessError } from './model.js';

// Where an error of a local spec file is: the processing pipeline names a JSON pointer
// (`/paths/~1pets/get/responses/200`) or a line and column; a person and an editor want
// `file:line:column`. The pointer is looked up in the file's own text (YAML, or JSON read as
// YAML), only when there are errors to show.

export interface Located {
  file: string;
  line?: number;
  column?: number;
  pointer?: string;
  message: string;
  code?: string;
}

const unescape = (p: string) => p.replace(/~1/g, '/').replace(/~0/g, '~');

/** 1-based line and column of the value (or the key naming it) at `pointer` in `text`. */
export async function locatePointer(text: string, pointer: string): Promise<{ line: number; column: number } | undefined> {
  const Y = await import('yaml');
  const lc = new Y.LineCounter();
  const doc = Y.parseDocument(text, { lineCounter: lc, version: '1.2', keepSourceTokens: false });
  let node: any = doc.contents;
  let at: number | undefined = node?.range?.[0];
  for (const raw of pointer === '/' ? [] : pointer.split('/').slice(1)) {
    const key = unescape(raw);
    if (Y.isMap(node)) {
      const pair: any = node.items.find((p: any) => (Y.isScalar(p.key) ? String(p.key.value) : String(p.key)) === key);
      if (!pair) break;
      at = pair.key?.range?.[0] ?? at;
      node = pair.value;
    } else if (Y.isSeq(node)) {
      node = node.items[Number(key)];
      if (!node) break;
      at = node.range?.[0] ?? at;
    } else break;
  }
  if (at === undefined) return undefined;
  const pos = lc.linePos(at);
  return { line: pos.line, column: pos.col };
}

/** The pipeline's `name: where: message` errors, located in the local file `file` of text `text`. */
export async function locateErrors(errors: ProcessError[], file: string, text: string): Promise<Located[]> {
  const out: Located[] = [];
  for (const e of errors) {
    const m = /^[^:]*: ((?:line (\d+), column (\d+))|\/[^:]*|document): ([\s\S]*)$/.exec(e.message);
    if (!m) {
      out.push({ file, message: e.message, ...(e.code ? { code: e.code } : {}) });
      continue;
    }
    const [, where, line, column, message] = m;
    const base = { file, message: message!, ...(e.code ? { code: e.code } : {}) };
    if (line) out.push({ ...base, line: Number(line), column: Number(column) });
    else if (where!.startsWith('/')) out.push({ ...base, pointer: where!, ...((await locatePointer(text, where!)) ?? {}) });
    else out.push(base);
  }
  return out;
}

/** `file:line:column: message (at /pointer)`, the form editors and CI problem matchers read. */
export function locatedLine(e: Located): string {
  return `${e.file}${e.line ? `:${e.line}:${e.column}` : ''}: ${e.message}${e.pointer ? ` (at ${e.pointer})` : ''}`;
}
