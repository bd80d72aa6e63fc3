import { describe, expect, it } from 'vitest';
import { renderPdf, winAnsi, type PdfInput } from '../../src/pdf/render.js';
import { png, readPdf } from '../helpers/pdf.js';

const MD = `Intro with **bold**, _italic_, \`inline code\` and a [link](https://example.com) to [the API](/pages/p2).

## Installation

- first item
- second item
  - nested item

1. one
2. two

> Quoted wisdom.

\`\`\`sh
npm install acme
\`\`\`

![Logo](/files/logo)
![Gone](/files/gone)

---
The end.
`;

const input = (over: Partial<PdfInput> = {}): PdfInput => ({
  title: 'Acme Handbook',
  createdAt: new Date('2026-01-01T00:00:00Z'),
  pages: [
    { id: 'p1', title: 'Getting started', depth: 0, markdown: MD },
    { id: 'p2', title: 'API reference', depth: 1, markdown: 'Lorem ipsum dolor sit amet. '.repeat(400) },
  ],
  image: async (src) => (src === '/files/logo' ? png(40, 20) : undefined),
  link: (url) => (url.startsWith('/pages/') ? { page: url.slice(7) } : { url }),
  ...over,
});

describe('renderPdf', () => {
  it('renders a valid PDF: titles, headings, lists, code, quotes, images, each page on a new sheet', async () => {
    const bytes = await renderPdf(input());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const pdf = await readPdf(bytes);
    expect(pdf.title).toBe('Acme Handbook');
    // The second page is long: it flows over more than one sheet, after the first page's sheet.
    expect(pdf.pageCount).toBeGreaterThanOrEqual(3);
    const first = pdf.pages[0]!.join('\n');
    for (const text of [
      'Getting started',
      'Installation',
      'first item',
      'nested item',
      'Quoted wisdom.',
      'npm install acme',
      'inline code',
      '[image: Gone]',
      'The end.',
    ]) {
      expect(first).toContain(text);
    }
    expect(first).not.toContain('API reference'); // the next page starts on a new sheet
    expect(pdf.pages[1]!.join('\n')).toContain('API reference');
    expect(pdf.images).toBe(1); // the one image with bytes; the other one shows its alt text
    expect(pdf.links).toEqual(['uri:https://example.com', 'dest:p2']); // a page of the export: a jump inside the PDF
  });

  it('renders an empty export as one page that says so', async () => {
    const pdf = await readPdf(await renderPdf(input({ pages: [] })));
    expect(pdf.pageCount).toBe(1);
    expect(pdf.pages[0]!.join(' ')).toContain('This content has no pages.');
  });

  it('keeps text the standard fonts can show, folds accents, replaces the rest', async () => {
    expect(winAnsi('Émile – “quotes” café')).toBe('Émile – “quotes” café');
    expect(winAnsi('Łódź 日本 ✓')).toBe('?ódz ?? ?'); // Ł has no decomposition; ź folds to z
    const pdf = await readPdf(await renderPdf(input({ pages: [{ id: 'x', title: 'Crème brûlée', depth: 0, markdown: 'Ça marche: Ōsaka.' }] })));
    expect(pdf.pages[0]!.join(' ')).toContain('Crème brûlée');
    expect(pdf.pages[0]!.join(' ')).toContain('Osaka');
  });

  it('shows the alt text for image bytes a PDF cannot hold (not PNG or JPEG)', async () => {
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1');
    const pdf = await readPdf(
      await renderPdf(input({ pages: [{ id: 'x', title: 'T', depth: 0, markdown: '![Animated](/files/a.gif)' }], image: async () => gif })),
    );
    expect(pdf.images).toBe(0);
    expect(pdf.pages[0]!.join(' ')).toContain('[image: Animated]');
  });
});
