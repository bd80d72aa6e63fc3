import type { Blockquote, Code, Heading, List, Nodes, Paragraph, PhrasingContent, RootContent } from 'mdast';

// Markdown pages -> PDF bytes, independent of the store: the caller hands over the pages (title,
// depth, markdown) and two look-ups (image bytes, link targets). Markdown is parsed with the same
// CommonMark parser as the rest of the project (mdast-util-from-markdown); the PDF is drawn with
// pdfkit, which flows text across lines and pages. Each page of the export starts on a new PDF
// page, its title as a heading and as an entry of the PDF outline (bookmarks), nested by depth.
//
// Fonts are the PDF standard 14 (Helvetica, Courier): nothing to embed, small files, but their
// encoding is WinAnsi (Latin-1 plus typographic quotes and dashes). Other characters are folded to
// their unaccented letter when there is one, else shown as '?': an honest limit, see docs/manual/pdf.md.

export interface PdfPage {
  /** Anchor for in-document links (a page id). */
  id: string;
  title: string;
  /** 0 for a top-level page; children one more (indents the outline, sizes the title). */
  depth: number;
  /** The page body; '' for pages without one (groups, links). */
  markdown: string;
  /** Shown under the title when set (a link page's target, a description). */
  note?: string;
}

export interface PdfInput {
  title: string;
  pages: readonly PdfPage[];
  /** The document's creation date (PDF metadata), from the caller's clock. */
  createdAt: Date;
  /** Bytes of an image by its URL as written in the markdown; undefined when not available. */
  image?: (src: string) => Promise<Buffer | undefined>;
  /** Where a link goes: another page of this export (by id), an external URL, or nowhere. */
  link?: (url: string) => { page: string } | { url: string } | undefined;
  /** Uncompressed content streams (tests read the text back). */
  compress?: boolean;
}

const FONT = { regular: 'Helvetica', bold: 'Helvetica-Bold', italic: 'Helvetica-Oblique', boldItalic: 'Helvetica-BoldOblique', mono: 'Courier' };
const SIZE = { body: 11, code: 9.5, title: [22, 18, 16, 14], heading: [0, 17, 15, 13, 12, 11, 11] };
const COLOR = { text: '#1f2328', muted: '#59636e', link: '#0969da', codeBg: '#f3f4f6', rule: '#d0d7de' };
const MARGIN = 56;
const INDENT = 18;

// WinAnsi: Latin-1 printable characters plus the code points pdfkit maps into 0x80-0x9F.
const WIN_ANSI_EXTRA = new Set([
  402, 8211, 8212, 8216, 8217, 8218, 8220, 8221, 8222, 8224, 8225, 8226, 8230, 8364, 8240, 8249, 8250, 710, 8482, 338, 339, 732, 352, 353, 376, 381, 382,
]);
const encodable = (c: number) => (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xff) || WIN_ANSI_EXTRA.has(c);

/** Text the standard fonts can show: accents folded away when needed, the rest as '?'. */
export function winAnsi(text: string): string {
  let out = '';
  for (const ch of text.replace(/\t/g, '    ')) {
    const c = ch.codePointAt(0)!;
    if (encodable(c) || ch === '\n') out += ch;
    else {
      const folded = ch.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
      out += folded && [...folded].every((f) => encodable(f.codePointAt(0)!)) ? folded : c === 0xfe0f || c === 0x200d ? '' : '?';
    }
  }
  return out;
}

interface Run {
  text: string;
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
  link?: { page: string } | { url: string };
}

type Block = { kind: 'runs'; runs: Run[] } | { kind: 'image'; src: string; alt: string };

export async function renderPdf(input: PdfInput): Promise<Buffer> {
  const [{ default: PDFDocument }, { fromMarkdown }] = await Promise.all([import('pdfkit'), import('mdast-util-from-markdown')]);
  const parsed = input.pages.map((p) => ({ page: p, root: fromMarkdown(p.markdown) }));

  // Images are loaded before drawing (drawing is synchronous); each distinct source once.
  const images = new Map<string, Buffer | undefined>();
  const visit = async (n: Nodes): Promise<void> => {
    if (n.type === 'image' && !images.has(n.url)) images.set(n.url, await input.image?.(n.url));
    if ('children' in n) for (const c of n.children) await visit(c as Nodes);
  };
  for (const { root } of parsed) await visit(root);

  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    compress: input.compress ?? true,
    autoFirstPage: false,
    info: { Title: winAnsi(input.title), Creator: 'docs', Producer: 'docs (pdfkit)', CreationDate: input.createdAt, ModDate: input.createdAt },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  let pageCount = 0;
  doc.on('pageAdded', () => pageCount++);
  const left = MARGIN;
  const fullWidth = () => doc.page.width - 2 * MARGIN;
  const bottom = () => doc.page.height - doc.page.margins.bottom;
  /** Starts a new PDF page when fewer than `h` points are left on this one. */
  const need = (h: number) => {
    if (doc.y + h > bottom()) doc.addPage();
  };
  const fontOf = (r: Run) => (r.code ? FONT.mono : r.bold && r.italic ? FONT.boldItalic : r.bold ? FONT.bold : r.italic ? FONT.italic : FONT.regular);

  /** A paragraph of styled runs, flowed by pdfkit (continued text), at `indent`. */
  const drawRuns = (runs: Run[], indent: number, size: number, color = COLOR.text, base: Partial<Run> = {}) => {
    const list = runs.filter((r) => r.text.length > 0);
    if (!list.length) return;
    const width = fullWidth() - indent;
    list.forEach((r0, i) => {
      const r = { ...base, ...r0 };
      const last = i === list.length - 1;
      doc
        .font(fontOf(r))
        .fontSize(r.code ? size * 0.92 : size)
        .fillColor(r.link ? COLOR.link : color);
      const opts: PDFKit.Mixins.TextOptions = { continued: !last, width, lineGap: 2, underline: !!r.link };
      // Continued text inherits the previous run's options: every run says where it links, or null.
      (opts as any).link = r.link && 'url' in r.link ? r.link.url : null;
      (opts as any).goTo = r.link && 'page' in r.link ? r.link.page : null;
      if (i === 0) doc.text(winAnsi(r.text), left + indent, doc.y, opts);
      else doc.text(winAnsi(r.text), opts);
    });
    doc.fillColor(COLOR.text);
  };

  const inlineRuns = (children: PhrasingContent[], style: Partial<Run> = {}): Block[] => {
    const out: Block[] = [];
    const push = (r: Run) => {
      const last = out[out.length - 1];
      if (last?.kind === 'runs') last.runs.push(r);
      else out.push({ kind: 'runs', runs: [r] });
    };
    const walk = (nodes: PhrasingContent[], s: Partial<Run>) => {
      for (const n of nodes) {
        switch (n.type) {
          case 'text':
            push({ ...s, text: n.value.replace(/\n/g, ' ') });
            break;
          case 'inlineCode':
            push({ ...s, code: true, text: n.value });
            break;
          case 'strong':
            walk(n.children, { ...s, bold: true });
            break;
          case 'emphasis':
            walk(n.children, { ...s, italic: true });
            break;
          case 'break':
            push({ ...s, text: '\n' });
            break;
          case 'link': {
            const target = input.link?.(n.url);
            walk(n.children, target ? { ...s, link: target } : s);
            break;
          }
          case 'image':
            out.push({ kind: 'image', src: n.url, alt: n.alt ?? '' });
            break;
          default:
            if ('value' in n) push({ ...s, text: String(n.value) });
            else if ('children' in n) walk(n.children as PhrasingContent[], s);
        }
      }
    };
    walk(children, style);
    return out;
  };

  const drawImage = (src: string, alt: string, indent: number) => {
    const bytes = images.get(src);
    const width = fullWidth() - indent;
    if (bytes) {
      try {
        const img = (doc as any).openImage(bytes) as { width: number; height: number };
        // At most the text width and half a page tall; never enlarged past its own size.
        const scale = Math.min(1, width / img.width, (doc.page.height - 2 * MARGIN) / 2 / img.height);
        const w = img.width * scale;
        const h = img.height * scale;
        need(h + 6);
        doc.image(img as any, left + indent, doc.y, { width: w, height: h });
        doc.y += h + 6;
        doc.x = left;
        return;
      } catch {
        // Not a PNG or JPEG (the formats a PDF shows natively): the alternative text stands in.
      }
    }
    drawRuns([{ text: `[image: ${alt || src}]`, italic: true }], indent, SIZE.body, COLOR.muted);
    doc.moveDown(0.4);
  };

  const drawParagraph = (p: Paragraph, indent: number, size = SIZE.body, base: Partial<Run> = {}, color?: string) => {
    for (const b of inlineRuns(p.children)) {
      if (b.kind === 'image') drawImage(b.src, b.alt, indent);
      else {
        need(size * 1.4);
        drawRuns(b.runs, indent, size, color, base);
        doc.moveDown(0.5);
      }
    }
  };

  const drawHeading = (h: Heading, indent: number) => {
    const size = SIZE.heading[h.depth]!;
    need(size * 1.4 + SIZE.body * 3); // keep a heading with the text after it
    doc.moveDown(0.3);
    const runs = inlineRuns(h.children).flatMap((b) => (b.kind === 'runs' ? b.runs : [{ text: b.alt }]));
    drawRuns(runs, indent, size, COLOR.text, { bold: true });
    doc.moveDown(0.35);
  };

  const drawCode = (c: Code, indent: number) => {
    // Line by line, each on its own grey band: a long block breaks across pages cleanly.
    const width = fullWidth() - indent;
    const pad = 6;
    doc.font(FONT.mono).fontSize(SIZE.code);
    const lines = winAnsi(c.value).split('\n');
    doc.moveDown(0.2);
    lines.forEach((line, i) => {
      const text = line || ' ';
      const h = doc.heightOfString(text, { width: width - 2 * pad }) + (i === 0 || i === lines.length - 1 ? pad / 2 : 0) + 1;
      need(h);
      const y = doc.y;
      doc.rect(left + indent, y, width, h).fill(COLOR.codeBg);
      doc.fillColor(COLOR.text).font(FONT.mono).fontSize(SIZE.code);
      doc.text(text, left + indent + pad, y + (i === 0 ? pad / 2 : 0) + 0.5, { width: width - 2 * pad, lineGap: 1 });
      doc.y = y + h;
    });
    doc.x = left;
    doc.moveDown(0.6);
  };

  const drawQuote = (q: Blockquote, indent: number) => {
    const startPage = pageCount;
    const startY = doc.y;
    blocks(q.children, indent + INDENT, { italic: true }, COLOR.muted);
    const top = pageCount === startPage ? startY : MARGIN;
    doc
      .save()
      .moveTo(left + indent + 4, top)
      .lineTo(left + indent + 4, doc.y - 6)
      .lineWidth(2.5)
      .strokeColor(COLOR.rule)
      .stroke()
      .restore();
  };

  const drawList = (l: List, indent: number) => {
    l.children.forEach((item, i) => {
      const marker = l.ordered ? `${(l.start ?? 1) + i}.` : '\u2022';
      need(SIZE.body * 1.4);
      const y = doc.y;
      doc
        .font(FONT.regular)
        .fontSize(SIZE.body)
        .fillColor(COLOR.text)
        .text(marker, left + indent, y, { width: INDENT + 4, lineBreak: false });
      doc.y = y;
      blocks(item.children, indent + INDENT + (l.ordered ? 4 : 0), {}, undefined, true);
    });
    doc.moveDown(0.3);
  };

  /** Block content at `indent`; `tight`: list items, with less space after paragraphs. */
  function blocks(children: RootContent[], indent: number, base: Partial<Run> = {}, color?: string, tight = false) {
    for (const n of children) {
      switch (n.type) {
        case 'paragraph':
          drawParagraph(n, indent, SIZE.body, base, color);
          if (tight) doc.moveDown(-0.25);
          break;
        case 'heading':
          drawHeading(n, indent);
          break;
        case 'code':
          drawCode(n, indent);
          break;
        case 'blockquote':
          drawQuote(n, indent);
          break;
        case 'list':
          drawList(n, indent);
          break;
        case 'thematicBreak':
          need(12);
          doc.moveDown(0.3);
          doc
            .save()
            .moveTo(left + indent, doc.y)
            .lineTo(left + fullWidth(), doc.y)
            .lineWidth(0.75)
            .strokeColor(COLOR.rule)
            .stroke()
            .restore();
          doc.moveDown(0.6);
          break;
        case 'html':
          if (n.value.trim()) drawCode({ type: 'code', value: n.value }, indent);
          break;
        case 'definition':
          break;
        default:
          if ('children' in n) blocks(n.children as RootContent[], indent, base, color, tight);
          else if ('value' in n && String(n.value).trim()) drawRuns([{ text: String(n.value) }], indent, SIZE.body, color, base);
      }
    }
  }

  const outline = [doc.outline] as PDFKit.PDFOutline[];
  for (const { page, root } of parsed) {
    doc.addPage();
    doc.addNamedDestination(page.id);
    const parent = outline[Math.min(page.depth, outline.length - 1)]!;
    outline[page.depth + 1] = parent.addItem(winAnsi(page.title || 'Untitled'));
    outline.length = page.depth + 2;
    const size = SIZE.title[Math.min(page.depth, SIZE.title.length - 1)]!;
    drawRuns([{ text: page.title || 'Untitled', bold: true }], 0, size);
    doc.moveDown(0.2);
    if (page.note) drawRuns([{ text: page.note, italic: true }], 0, SIZE.body, COLOR.muted);
    doc
      .save()
      .moveTo(left, doc.y + 2)
      .lineTo(left + fullWidth(), doc.y + 2)
      .lineWidth(0.75)
      .strokeColor(COLOR.rule)
      .stroke()
      .restore();
    doc.moveDown(0.8);
    blocks(root.children, 0);
  }
  // An export with no page at all is still a valid, one-page document that says so.
  if (!parsed.length) {
    doc.addPage();
    drawRuns([{ text: input.title, bold: true }], 0, SIZE.title[0]!);
    doc.moveDown(0.5);
    drawRuns([{ text: 'This content has no pages.', italic: true }], 0, SIZE.body, COLOR.muted);
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
