import type { Nodes, Parents, PhrasingContent, RootContent } from 'mdast';
import { operationMarkdown, operationNode, refOfNode, splitOperations } from './openapi-blocks.js';

// Markdown <-> the contract's Document (JSONDocument), for text people write by hand (agent
// instructions). Parsing is CommonMark through mdast-util-from-markdown; the mapping covers the
// blocks a Document's essentials have: paragraphs, headings 1-3, lists, code, quotes, dividers,
// with bold, italic, code and links inline, and GitBook's inline OpenAPI operation blocks
// (`openapi-operation`, ./openapi-blocks.ts). Anything else keeps its text as a paragraph.

type Mark = 'bold' | 'italic' | 'code' | 'strikethrough';
export interface DocumentJson {
  object: 'document';
  data: Record<string, unknown>;
  nodes: any[];
}

const leaf = (text: string, marks: Mark[]) => ({ object: 'leaf', text, marks: marks.map((type) => ({ object: 'mark', type })) });
const textNode = (leaves: object[]) => ({ object: 'text', leaves });
const block = (type: string, nodes: unknown[], data: object = {}) => ({ object: 'block', type, data, nodes });

/** Inline content: runs of leaves become text nodes; links become link inlines. */
function inlines(children: PhrasingContent[], marks: Mark[] = []): any[] {
  const out: any[] = [];
  const push = (l: object) => {
    const last = out[out.length - 1];
    if (last?.object === 'text') last.leaves.push(l);
    else out.push(textNode([l]));
  };
  const walk = (nodes: PhrasingContent[], m: Mark[]) => {
    for (const n of nodes) {
      switch (n.type) {
        case 'text':
          push(leaf(n.value, m));
          break;
        case 'inlineCode':
          push(leaf(n.value, [...m, 'code']));
          break;
        case 'strong':
          walk(n.children, [...m, 'bold']);
          break;
        case 'emphasis':
          walk(n.children, [...m, 'italic']);
          break;
        case 'delete':
          walk(n.children, [...m, 'strikethrough']);
          break;
        case 'break':
          push(leaf('\n', m));
          break;
        case 'link':
          out.push({ object: 'inline', type: 'link', isVoid: false, data: { ref: { kind: 'url', url: n.url } }, nodes: inlines(n.children, m) });
          break;
        case 'image':
          push(leaf(n.alt ?? '', m));
          break;
        default:
          push(leaf('value' in n ? String(n.value) : '', m));
      }
    }
  };
  walk(children, marks);
  return out.length ? out : [textNode([leaf('', [])])];
}

const plain = (n: Nodes): string => ('value' in n ? String(n.value) : 'children' in n ? (n as Parents).children.map(plain).join('') : '');

/** Blocks. `essentialsOnly`: inside quotes, where a Document allows only the essential blocks. */
function blocks(children: RootContent[], essentialsOnly = false): any[] {
  const out: any[] = [];
  for (const n of children) {
    switch (n.type) {
      case 'paragraph': {
        // A paragraph that is only `{% include "/reusable/<id>" %}`: a reusable content block
        // (docs/manual/reusable-content.md); any other include stays text.
        const only =
          n.children.length === 1 && n.children[0]!.type === 'text'
            ? /^\{%\s*include\s+"\/reusable\/([A-Za-z0-9_-]+)"\s*%\}$/.exec(n.children[0]!.value.trim())
            : null;
        if (only && !essentialsOnly)
          out.push({ object: 'block', type: 'reusable-content', isVoid: true, data: { ref: { kind: 'reusable-content', reusableContent: only[1] } } });
        else out.push(block('paragraph', inlines(n.children)));
        break;
      }
      case 'heading':
        out.push(block(`heading-${Math.min(n.depth, 3)}`, inlines(n.children)));
        break;
      case 'thematicBreak':
        out.push({ object: 'block', type: 'divider', isVoid: true, data: {} });
        break;
      case 'list': {
        const items = n.children.map((item) => block('list-item', blocks(item.children, true)));
        out.push(n.ordered ? block('list-ordered', items, n.start && n.start !== 1 ? { start: n.start } : {}) : block('list-unordered', items));
        break;
      }
      case 'code':
        if (essentialsOnly) out.push(block('paragraph', [textNode([leaf(n.value, ['code'])])]));
        else
          out.push(
            block(
              'code',
              n.value.split('\n').map((line) => block('code-line', [textNode([leaf(line, [])])])),
              n.lang ? { syntax: n.lang } : {},
            ),
          );
        break;
      case 'blockquote':
        out.push(block('blockquote', blocks(n.children, true)));
        break;
      default: {
        const text = plain(n);
        if (text.trim()) out.push(block('paragraph', [textNode([leaf(text, [])])]));
      }
    }
  }
  return out;
}

/** A Document from markdown. */
export async function markdownToDocument(markdown: string): Promise<DocumentJson> {
  const { fromMarkdown } = await import('mdast-util-from-markdown');
  // Operation blocks are cut out first (their tags are not markdown); the text between is parsed.
  const nodes = splitOperations(markdown).flatMap((p) => ('ref' in p ? [operationNode(p.ref)] : blocks(fromMarkdown(p.text).children)));
  return { object: 'document', data: { schemaVersion: 1 }, nodes };
}

const WRAP: Record<string, string> = { bold: '**', italic: '_', strikethrough: '~~' };

function inlineText(nodes: any[]): string {
  return (nodes ?? [])
    .map((n) => {
      if (n.object === 'text') {
        return (n.leaves ?? [])
          .map((l: any) => {
            const marks: string[] = (l.marks ?? []).map((m: any) => m.type);
            let t = marks.includes('code') ? '`' + l.text + '`' : l.text;
            for (const m of marks) if (WRAP[m] && t) t = WRAP[m] + t + WRAP[m];
            return t;
          })
          .join('');
      }
      if (n.object === 'inline' && n.type === 'link') return `[${inlineText(n.nodes)}](${n.data?.ref?.url ?? ''})`;
      return inlineText(n.nodes);
    })
    .join('');
}

/** Markdown for a Document (the blocks markdownToDocument makes; others by their text). */
export function documentToMarkdown(doc: { nodes?: any[] }): string {
  const render = (nodes: any[], indent = ''): string[] =>
    (nodes ?? []).flatMap((b: any): string[] => {
      switch (b.type) {
        case 'paragraph':
          return [indent + inlineText(b.nodes), ''];
        case 'heading-1':
        case 'heading-2':
        case 'heading-3':
          return [indent + '#'.repeat(Number(b.type.slice(-1))) + ' ' + inlineText(b.nodes), ''];
        case 'divider':
          return [indent + '---', ''];
        case 'reusable-content':
          return b.data?.ref?.reusableContent ? [`${indent}{% include "/reusable/${b.data.ref.reusableContent}" %}`, ''] : [];
        case 'openapi-operation': {
          const ref = refOfNode(b);
          return ref
            ? [
                ...operationMarkdown(ref)
                  .split('\n')
                  .map((l) => indent + l),
                '',
              ]
            : [];
        }
        case 'code':
          return [indent + '```' + (b.data?.syntax ?? ''), ...(b.nodes ?? []).map((l: any) => indent + inlineText(l.nodes)), indent + '```', ''];
        case 'blockquote':
          return render(b.nodes)
            .map((l) => (l ? `${indent}> ${l}` : `${indent}>`))
            .slice(0, -1)
            .concat('');
        case 'list-ordered':
        case 'list-unordered':
          return [
            ...(b.nodes ?? []).flatMap((item: any, i: number) => {
              const bullet = b.type === 'list-ordered' ? `${(b.data?.start ?? 1) + i}. ` : '- ';
              const lines = render(item.nodes, ' '.repeat(bullet.length)).filter((l) => l.trim());
              return lines.length ? [indent + bullet + lines[0]!.trimStart(), ...lines.slice(1).map((l) => indent + l)] : [indent + bullet];
            }),
            '',
          ];
        default:
          return b.nodes ? render(b.nodes, indent) : [];
      }
    });
  return (
    render(doc.nodes ?? [])
      .join('\n')
      .trim() + '\n'
  );
}
