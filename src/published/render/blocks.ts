import { randomBytes } from 'node:crypto';

// GitBook's block syntax in markdown (what GitBook exports and `content push` stores as is):
//   {% hint style="info" %} ... {% endhint %}
//   {% tabs %} {% tab title="npm" %} ... {% endtab %} {% endtabs %}
//   <details><summary>Title</summary> ... </details>          (expandables)
//   <figure><img src="a.png" alt="A"><figcaption><p>Caption</p></figcaption></figure>   (images with captions)
//   {% embed url="https://..." %} [caption] [{% endembed %}]  (embeds: a link card; nothing is framed)
// Raw HTML is never rendered, so these lines are turned into marker paragraphs (with a nonce
// a page cannot guess) before parsing, and `remarkBlocks` folds what lies between an opening
// and its closing marker into one element. Lines inside fenced code are left alone.

export interface Markers {
  text: string;
  nonce: string;
}

const HINT = /^ {0,3}\{%\s*hint\s+style="(info|success|warning|danger)"\s*%\}\s*$/;
const END_HINT = /^ {0,3}\{%\s*endhint\s*%\}\s*$/;
const TABS = /^ {0,3}\{%\s*tabs\s*%\}\s*$/;
const END_TABS = /^ {0,3}\{%\s*endtabs\s*%\}\s*$/;
const TAB = /^ {0,3}\{%\s*tab\s+title="([^"]*)"\s*%\}\s*$/;
const END_TAB = /^ {0,3}\{%\s*endtab\s*%\}\s*$/;
const DETAILS = /^ {0,3}<details>\s*(?:<summary>(.*?)<\/summary>)?\s*$/i;
const SUMMARY = /^ {0,3}<summary>(.*?)<\/summary>\s*$/i;
const END_DETAILS = /^ {0,3}<\/details>\s*$/i;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const FIGURE = /^ {0,3}<figure>\s*<img\s([^>]*?)\/?>\s*(?:<figcaption>([\s\S]*?)<\/figcaption>)?\s*<\/figure>\s*$/i;
const EMBED = /^ {0,3}\{%\s*embed\s+url="([^"]*)"[^%]*%\}\s*$/;
const END_EMBED = /^ {0,3}\{%\s*endembed\s*%\}\s*$/;

const attrIn = (attrs: string, name: string) => new RegExp(`(?:^|\\s)${name}="([^"]*)"`, 'i').exec(attrs)?.[1] ?? '';
const unescape = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
/** A caption's text: its tags dropped (it is shown as text). */
const captionText = (html: string) =>
  unescape(
    html
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );

const enc = (s: string) => Buffer.from(s, 'utf8').toString('base64url');

export function markBlocks(markdown: string): Markers {
  const nonce = `docsblock${randomBytes(6).toString('hex')}`;
  const mark = (what: string, kind: string, arg = '') => `\n\n${nonce}:${what}:${kind}:${enc(arg)}\n\n`;
  let fence: string | undefined;
  const out = markdown.split('\n').map((line) => {
    const f = FENCE.exec(line);
    if (fence) {
      if (f && f[1]![0] === fence[0] && f[1]!.length >= fence.length) fence = undefined;
      return line;
    }
    if (f) return ((fence = f[1]), line);
    let m: RegExpExecArray | null;
    if ((m = FIGURE.exec(line))) {
      // The image as markdown (so it resolves and is sanitized like any), the caption as text.
      const src = unescape(attrIn(m[1]!, 'src'));
      const alt = unescape(attrIn(m[1]!, 'alt')).replace(/[[\]\\]/g, '\\$&');
      return `${mark('open', 'figure', captionText(m[2] ?? ''))}![${alt}](<${src.replace(/[<>\n]/g, encodeURIComponent)}>)${mark('close', 'figure')}`;
    }
    if ((m = EMBED.exec(line))) return mark('open', 'embed', unescape(m[1]!));
    if (END_EMBED.test(line)) return '';
    if ((m = HINT.exec(line))) return mark('open', 'hint', m[1]);
    if (END_HINT.test(line)) return mark('close', 'hint');
    if (TABS.test(line)) return mark('open', 'tabs');
    if (END_TABS.test(line)) return mark('close', 'tabs');
    if ((m = TAB.exec(line))) return mark('open', 'tab', m[1]);
    if (END_TAB.test(line)) return mark('close', 'tab');
    if ((m = DETAILS.exec(line))) return mark('open', 'details', m[1] ?? '');
    if ((m = SUMMARY.exec(line))) return mark('summary', 'details', m[1]);
    if (END_DETAILS.test(line)) return mark('close', 'details');
    return line;
  });
  return { text: out.join('\n'), nonce };
}

const dec = (s: string) => Buffer.from(s, 'base64url').toString('utf8');

/** A remark plugin folding the marked blocks into elements (hint: div.hint, tab/expandable: details). */
export function remarkBlocks(nonce: string) {
  const marker = new RegExp(`^${nonce}:(open|close|summary):(hint|tabs|tab|details|figure|embed):([A-Za-z0-9_-]*)$`);
  const summary = (title: string) => ({ type: 'docsSummary', data: { hName: 'summary' }, children: [{ type: 'text', value: title }] });
  return () => (tree: any) => {
    const fold = (parent: any) => {
      const stack: { kind: string; node: any }[] = [];
      const out: any[] = [];
      const push = (n: any) => (stack.length ? stack[stack.length - 1]!.node.children.push(n) : out.push(n));
      for (const child of parent.children ?? []) {
        const text = child.type === 'paragraph' && child.children.length === 1 && child.children[0].type === 'text' ? child.children[0].value : undefined;
        const m = text ? marker.exec(text) : null;
        if (!m) {
          if (child.type === 'blockquote' || child.type === 'listItem') fold(child);
          push(child);
          continue;
        }
        const [, what, kind, arg] = m as unknown as [string, string, string, string];
        if (what === 'open' && kind === 'embed') {
          // A link to what GitBook would frame: the site's CSP frames nothing.
          const url = dec(arg);
          push({
            type: 'docsBlock',
            data: { hName: 'div', hProperties: { className: ['embed'] } },
            children: [{ type: 'paragraph', children: [{ type: 'link', url, children: [{ type: 'text', value: url }] }] }],
          });
          continue;
        }
        if (what === 'open' && kind === 'figure') {
          const node = { type: 'docsBlock', data: { hName: 'figure', caption: dec(arg) }, children: [] };
          push(node);
          stack.push({ kind, node });
          continue;
        }
        if (what === 'open') {
          const node =
            kind === 'hint'
              ? { type: 'docsBlock', data: { hName: 'div', hProperties: { className: ['hint', `hint-${dec(arg)}`] } }, children: [] }
              : kind === 'tabs'
                ? { type: 'docsBlock', data: { hName: 'div', hProperties: { className: ['tabs'] } }, children: [] }
                : {
                    type: 'docsBlock',
                    data: { hName: 'details', hProperties: kind === 'tab' ? { className: ['tab'], open: true } : {} },
                    children: dec(arg) ? [summary(dec(arg))] : [],
                  };
          push(node);
          stack.push({ kind, node });
        } else if (what === 'summary') {
          const top = stack[stack.length - 1];
          if (top?.kind === 'details' && !top.node.children.length) top.node.children.push(summary(dec(arg)));
        } else {
          // A closing marker closes the innermost block of its kind (and any left open inside it).
          const at = stack.map((s) => s.kind).lastIndexOf(kind);
          const fig = stack[at]?.node;
          if (kind === 'figure' && fig?.data.caption)
            fig.children.push({ type: 'docsBlock', data: { hName: 'figcaption' }, children: [{ type: 'text', value: fig.data.caption }] });
          if (at >= 0) stack.length = at;
        }
      }
      parent.children = out;
    };
    fold(tree);
  };
}
