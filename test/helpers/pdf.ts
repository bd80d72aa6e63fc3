import { crc32, deflateSync } from 'node:zlib';
import { decodePDFRawStream, PDFArray, PDFDocument, PDFName, PDFRawStream, type PDFRef } from 'pdf-lib';

// Reading PDFs back in tests: pdf-lib parses the file (a malformed one throws) and inflates each
// page's content stream; the text is read from the stream's string operands (pdfkit writes the
// standard fonts' text as hex strings of WinAnsi codes, split at kerning pairs inside TJ arrays).

export interface ReadPdf {
  pageCount: number;
  title?: string;
  /** Text of each page, one string per TJ/Tj run. */
  pages: string[][];
  /** How many image XObjects the pages use. */
  images: number;
  /** Link annotations: `uri:<url>` or `dest:<named destination>`. */
  links: string[];
}

function streamBytes(doc: PDFDocument, obj: unknown): Uint8Array[] {
  const o = obj instanceof PDFArray ? obj.asArray() : [obj];
  return o.map((x) => {
    const s = doc.context.lookup(x as PDFRef);
    if (!(s instanceof PDFRawStream)) return new Uint8Array();
    return decodePDFRawStream(s).decode();
  });
}

const runs = (content: string): string[] => {
  const out: string[] = [];
  for (const m of content.matchAll(/\[((?:<[0-9a-fA-F]*>|\s|-?[\d.]+)*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g)) {
    const hexes = m[1] !== undefined ? [...m[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => h[1]!) : [m[2]!];
    out.push(hexes.map((h) => Buffer.from(h, 'hex').toString('latin1')).join(''));
  }
  return out;
};

export async function readPdf(bytes: Uint8Array): Promise<ReadPdf> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  let images = 0;
  const links: string[] = [];
  const pages = doc.getPages().map((p) => {
    for (const ref of p.node.Annots()?.asArray() ?? []) {
      const annot = doc.context.lookup(ref) as any;
      const action = annot.lookup(PDFName.of('A'));
      const uri = action?.lookup(PDFName.of('URI'));
      const dest = action?.lookup(PDFName.of('D')) ?? annot.lookup(PDFName.of('Dest'));
      if (uri) links.push(`uri:${uri.decodeText?.() ?? uri.asString?.() ?? String(uri)}`);
      else if (dest) links.push(`dest:${dest.decodeText?.() ?? dest.asString?.() ?? String(dest)}`);
    }
    const xobjects = p.node.Resources()?.lookup(PDFName.of('XObject'));
    if (xobjects) images += (xobjects as any).keys().length;
    return streamBytes(doc, p.node.get(PDFName.of('Contents'))).flatMap((b) => runs(Buffer.from(b).toString('latin1')));
  });
  return { pageCount: doc.getPageCount(), title: doc.getTitle(), pages, images, links };
}

/** A solid-colour PNG (RGB, 8 bits) of w x h pixels. */
export function png(w: number, h: number, rgb: [number, number, number] = [30, 120, 200]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([head, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: w }, () => rgb).flat())]);
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: h }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
