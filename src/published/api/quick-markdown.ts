import { attr, safeUrl } from '../render/html.js';

/** Text as the renderer writes it (quotes left as they are). */
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

// The markdown most spec descriptions are written in (paragraphs, `-` lists, `code`, **bold**,
// *emphasis*, [links](url)) drawn directly, as the page renderer would draw it: every character
// escaped, only these tags made, a link's URL through `safeUrl` (no javascript:). A text using
// anything else (raw HTML, tables, headings, fences, quotes, numbered lists, autolinks, escapes,
// entities, underscores as emphasis) returns undefined and goes through the page renderer, which
// sanitizes it. The renderer costs milliseconds a text; an operation of a large schema has
// hundreds of descriptions.

const OUTSIDE = /[<>|\\&~]|!\[|``|(^|\n)\s*(#|>|\d+[.)]|\s{2,}\S|\t)|(^|[^\w])_|_([^\w]|$)/;

function inline(text: string): string | undefined {
  const codes: string[] = [];
  const links: string[] = [];
  let t = text.replace(/`([^`\n]+)`/g, (_m, c: string) => `\u0000c${codes.push(`<code>${esc(c)}</code>`) - 1}\u0000`);
  t = t.replace(/\[([^[\]\n]+)\]\(([^()\s]+)\)/g, (_m, label: string, url: string) => `\u0000l${links.push(`${url}\u0001${label}`) - 1}\u0000`);
  // What is left must hold no autolink (GFM makes links of bare URLs and addresses).
  if (/:\/\/|www\.|@|[[\]`]/i.test(t)) return undefined;
  let html = esc(t)
    .replace(/\*\*([^*\n]+?)\*\*/g, '<strong>$1</strong>')
    .replace(/\*([^*\s][^*\n]*?)\*/g, (m, inner: string) => (/\s$/.test(inner) ? m : `<em>${inner}</em>`));
  if (html.includes('*')) return undefined;
  html = html.replace(/\u0000l(\d+)\u0000/g, (_m, i) => {
    const [url, label] = links[Number(i)]!.split('\u0001') as [string, string];
    const inner = inline(label);
    return `<a href="${attr(safeUrl(url))}">${inner ?? esc(label)}</a>`;
  });
  return html.replace(/\u0000c(\d+)\u0000/g, (_m, i) => codes[Number(i)]!);
}

/** The HTML of a description in the common subset, or undefined (use the page renderer). */
export function quickMarkdown(text: string): string | undefined {
  if (OUTSIDE.test(text) || /[\u0000\u0001]/.test(text)) return undefined;
  const out: string[] = [];
  for (const block of text.trim().split(/\n[ \t]*\n/)) {
    const lines = block.split('\n').map((l) => l.trimEnd());
    if (/^[-*+] /.test(lines[0]!)) {
      const items: string[] = [];
      for (const l of lines) {
        if (/^[-*+] /.test(l)) items.push(l.slice(2).trim());
        else if (items.length && /^ {1,3}\S/.test(l)) items[items.length - 1] += `\n${l.trim()}`;
        else return undefined;
      }
      const lis = items.map(inline);
      if (lis.some((x) => x === undefined)) return undefined;
      out.push(`<ul>\n${lis.map((x) => `<li>${x}</li>`).join('\n')}\n</ul>`);
    } else {
      if (lines.some((l) => /^[-*+=]/.test(l) || /^\s/.test(l))) return undefined; // a list or setext heading further down
      const p = inline(lines.join('\n'));
      if (p === undefined) return undefined;
      out.push(`<p>${p}</p>`);
    }
  }
  return out.join('\n');
}
