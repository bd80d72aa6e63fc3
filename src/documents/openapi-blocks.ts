// GitBook's inline OpenAPI operation block, as Git Sync writes it in a page's markdown
// (docs/manual/api-reference.md#one-operation-inside-a-page):
//
//   {% openapi-operation spec="petstore" path="/pets/{petId}" method="get" %}
//   [OpenAPI petstore](https://example.com/openapi.json)
//   {% endopenapi-operation %}
//
// The line between the tags is a link to the spec GitBook writes for readers of the raw file;
// it carries nothing the block needs (the spec is named by its slug) and may be absent. As a
// Document node it is `DocumentBlockOpenAPIOperation`:
//   {object: 'block', type: 'openapi-operation', isVoid: true,
//    data: {ref: {kind: 'openapi', spec}, path, method}}

export interface OperationRef {
  /** The organization's OpenAPI spec, by slug. */
  spec: string;
  /** The operation's path in the spec, as written there (`/pets/{petId}`). */
  path: string;
  /** Its method, lower case. */
  method: string;
}

const OPEN = /^ {0,3}\{%\s*openapi-operation((?:\s+[A-Za-z]+="[^"\n]*")*)\s*%\}[ \t]*$/;
const CLOSE = /^ {0,3}\{%\s*endopenapi-operation\s*%\}[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATTR = /([A-Za-z]+)="([^"\n]*)"/g;
/** What may stand between the tags: blank lines and one line of text (GitBook's link to the spec). */
const INNER_MAX = 3;

/** The block's attributes; undefined when spec, path or method is missing or empty. */
export function operationAttrs(attrs: string): OperationRef | undefined {
  const got: Record<string, string> = {};
  for (const m of attrs.matchAll(ATTR)) got[m[1]!] ??= m[2]!;
  const { spec, path, method } = got;
  if (!spec || !path || !method) return undefined;
  return { spec, path, method: method.toLowerCase() };
}

export type Piece = { text: string } | { ref: OperationRef; raw: string };

/**
 * A page's markdown cut at its operation blocks (never inside fenced code): text pieces and
 * blocks, which joined give the markdown back. A block is its opening line, then up to its
 * closing line when only blank lines and one line of text lie between (else the opening line
 * alone). An opening line with a missing attribute stays text.
 */
export function splitOperations(markdown: string): Piece[] {
  if (!markdown.includes('openapi-operation')) return [{ text: markdown }];
  const lines = markdown.split('\n');
  const out: Piece[] = [];
  let text: string[] = [];
  let fence: string | undefined;
  const flush = () => {
    if (text.length) out.push({ text: text.join('\n') });
    text = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const f = FENCE.exec(line);
    if (fence) {
      if (f && f[1]![0] === fence[0] && f[1]!.length >= fence.length) fence = undefined;
      text.push(line);
      continue;
    }
    if (f) {
      fence = f[1];
      text.push(line);
      continue;
    }
    const m = OPEN.exec(line);
    const ref = m ? operationAttrs(m[1]!) : undefined;
    if (!ref) {
      text.push(line);
      continue;
    }
    let end = i;
    let texts = 0;
    for (let j = i + 1; j < lines.length && j <= i + 1 + INNER_MAX; j++) {
      if (CLOSE.test(lines[j]!)) {
        end = j;
        break;
      }
      if (lines[j]!.trim() && ++texts > 1) break;
      if (OPEN.test(lines[j]!)) break;
    }
    // The newline before a block belongs to the text before it, so pieces join with '\n'.
    flush();
    out.push({ ref, raw: lines.slice(i, end + 1).join('\n') });
    i = end;
  }
  flush();
  return out;
}

/** Joins pieces back (the inverse of splitOperations). */
export const joinPieces = (pieces: Piece[]) => pieces.map((p) => ('text' in p ? p.text : p.raw)).join('\n');

/** The operation blocks of a page's markdown. */
export const operationRefs = (markdown: string): OperationRef[] => splitOperations(markdown).flatMap((p) => ('ref' in p ? [p.ref] : []));

const clean = (s: string) => s.replace(/["\n\r]/g, '');

/** The block as Git Sync writes it when it has no spec URL to link to: the two tags. */
export const operationMarkdown = (ref: OperationRef) =>
  `{% openapi-operation spec="${clean(ref.spec)}" path="${clean(ref.path)}" method="${clean(ref.method.toLowerCase())}" %}\n{% endopenapi-operation %}`;

/** The Document node (DocumentBlockOpenAPIOperation) of a block. */
export const operationNode = (ref: OperationRef) => ({
  object: 'block' as const,
  type: 'openapi-operation' as const,
  isVoid: true as const,
  data: { ref: { kind: 'openapi' as const, spec: ref.spec }, path: ref.path, method: ref.method },
});

/** A node's block, when it is an `openapi-operation` with a spec, path and method. */
export function refOfNode(node: any): OperationRef | undefined {
  if (node?.type !== 'openapi-operation') return undefined;
  const spec = node.data?.ref?.kind === 'openapi' ? node.data.ref.spec : undefined;
  const { path, method } = node.data ?? {};
  if (typeof spec !== 'string' || !spec || typeof path !== 'string' || !path || typeof method !== 'string' || !method) return undefined;
  return { spec, path, method: method.toLowerCase() };
}
