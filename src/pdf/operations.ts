import { contextBase } from '../kernel/context.js';
import { readBlob } from '../content/blobs.js';
import type { Context } from '../kernel/context.js';
import { defineOperation, type OperationResult } from '../kernel/operation.js';
import { purgeIfExpired } from '../space-expiry.js';
import { hasPdf, pdfUrl, writePdf } from './files.js';
import { renderPdf } from './render.js';
import { changeRequestSource, spaceSource, type PdfSelection, type PdfSource } from './service.js';

// GET .../pdf: renders the selected pages once per (revision, selection) into the data
// directory and answers a signed URL to the file, valid one hour (src/pdf/files.ts).

// Renders of the same key already under way (two clicks at once render once).
const inFlight = new WeakMap<Context, Map<string, Promise<void>>>();

async function ensureRendered(ctx: Context, src: PdfSource): Promise<void> {
  if (await hasPdf(ctx, src.key)) return;
  let running = inFlight.get(contextBase(ctx));
  if (!running) inFlight.set(contextBase(ctx), (running = new Map()));
  const existing = running.get(src.key);
  if (existing) return existing;
  const job = render(ctx, src)
    .then((bytes) => writePdf(ctx, src.key, bytes))
    .finally(() => running.delete(src.key));
  running.set(src.key, job);
  return job;
}

function render(ctx: Context, src: PdfSource): Promise<Buffer> {
  const exported = new Set(src.pages.map((p) => p.id));
  const fileByUrl = (url: string) => {
    // Stored markdown names files `/files/<id>`; a name as written is tried too.
    const id = /^\/files\/([^/?#]+)$/.exec(url)?.[1];
    const name = decodeURIComponent(url.replace(/^\.?\//, ''));
    return src.files.find((f) => f.id === id) ?? src.files.find((f) => f.name === name);
  };
  return renderPdf({
    title: src.title,
    pages: src.pages,
    createdAt: ctx.clock.now(),
    // Only images of the revision: remote images are not fetched while rendering (no request
    // to arbitrary hosts from the server, and a PDF that depends only on the revision).
    image: async (url) => {
      const f = fileByUrl(url);
      return f?.contentType.startsWith('image/') ? readBlob(ctx, f.sha) : undefined;
    },
    link: (url) => {
      const page = /^\/pages\/([^/?#]+)$/.exec(url)?.[1];
      if (page) return exported.has(page) ? { page } : undefined;
      return /^(https?:|mailto:)/i.test(url) ? { url } : undefined;
    },
  });
}

async function answer(ctx: Context, src: PdfSource): Promise<OperationResult> {
  await ensureRendered(ctx, src);
  return { status: 200, body: { url: await pdfUrl(ctx, src.space, src.key, src.name) } };
}

const selection = (query: Record<string, any>): PdfSelection => ({ only: query.only === true, page: query.page });

export const getSpacePDF = defineOperation('getSpacePDF', async ({ ctx, caller, path, query }) => {
  await purgeIfExpired(ctx, path.spaceId);
  return answer(ctx, await ctx.store.read((tx) => spaceSource(tx, caller, path.spaceId, selection(query))));
});

export const getChangeRequestPDF = defineOperation('getChangeRequestPDF', async ({ ctx, caller, path, query }) => {
  await purgeIfExpired(ctx, path.spaceId);
  return answer(ctx, await ctx.store.read((tx) => changeRequestSource(tx, caller, path.spaceId, path.changeRequestId, selection(query))));
});
