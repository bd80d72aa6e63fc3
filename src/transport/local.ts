import { authenticate } from '../auth/tokens.js';
import { Router } from '../contract/router.js';
import type { OperationInput } from '../contract/validate.js';
import type { Caller, Context } from '../kernel/context.js';
import { asDocsError, DocsError } from '../kernel/errors.js';
import { readBlob } from '../content/blobs.js';
import { checkDownload } from '../content/downloads.js';
import { invoke } from '../invoke.js';
import { collectEvents } from '../kernel/operation.js';
import { OPERATION_IDS } from '../operations.js';
import type { CallResult, Transport } from './types.js';

/** Runs operations in this process, on an open context, through the same `invoke` as the server. */
export class LocalTransport implements Transport {
  readonly remote = false;
  constructor(
    private readonly ctx: Context,
    private readonly caller: Caller | undefined,
    readonly target: string,
    private readonly onClose: () => Promise<void> = async () => {},
  ) {}

  /** A transport acting as the holder of `token`, or as `caller` when there is no token. */
  static async as(ctx: Context, token: string | undefined, caller: Caller | undefined, target: string, onClose?: () => Promise<void>) {
    const who = token ? await authenticate(ctx, token) : caller;
    // Whoever it acts as, the call is made on this machine, by whoever can open its store.
    return new LocalTransport(ctx, who && { ...who, inProcess: true }, target, onClose);
  }

  async call(operationId: string, input: OperationInput = {}): Promise<CallResult> {
    const r = await invoke(this.ctx, operationId, input, this.caller);
    if (r.error) throw r.error;
    return { status: r.status, body: r.events ? await collectEvents(r.events) : r.body, headers: r.headers ?? {} };
  }

  async *stream(operationId: string, input: OperationInput = {}): AsyncIterable<unknown> {
    const r = await invoke(this.ctx, operationId, input, this.caller);
    if (r.error) throw r.error;
    if (r.events) yield* r.events;
    else yield r.body;
  }

  async request(method: string, path: string, input: { query?: Record<string, unknown>; body?: unknown } = {}): Promise<CallResult> {
    const rel = path.replace(/^\/?(v1(\/|$))?/, '/');
    try {
      const route = new Router(OPERATION_IDS).match(method.toUpperCase(), rel);
      const r = await invoke(this.ctx, route.operationId, { path: route.path, query: input.query, body: input.body }, this.caller);
      return { status: r.status, body: r.events ? await collectEvents(r.events) : r.body, headers: r.headers ?? {} };
    } catch (err) {
      const e = asDocsError(err);
      return { status: e.status, body: e.toBody(), headers: {} };
    }
  }

  async docs(method: string, path: string, input: { query?: Record<string, unknown>; body?: unknown } = {}): Promise<CallResult> {
    if (!this.caller) throw new DocsError('unauthenticated', 'no owner in this store yet: nothing to act as');
    const { docsRoute } = await import('../docs-routes.js');
    const r = await docsRoute(this.ctx, this.caller, method.toUpperCase(), path, input.query ?? {}, input.body);
    return { status: r.status, body: r.body, headers: {} };
  }

  async download(url: string): Promise<Buffer> {
    const u = new URL(url);
    if (u.pathname.startsWith('/pdf/')) {
      // A rendered PDF (getSpacePDF, getChangeRequestPDF): the same check as the server's route.
      const pdf = await (await import('../pdf/files.js')).checkPdfDownload(this.ctx, u.pathname, u.search);
      if (!pdf) throw new DocsError('not_found', 'PDF not found (or its URL expired: ask for a new one)');
      return pdf.bytes;
    }
    const ok = await checkDownload(this.ctx, u.pathname, u.search);
    const bytes = ok && (await readBlob(this.ctx, ok.sha));
    if (!bytes) throw new DocsError('not_found', 'file not found (or the download URL expired: get a new one)');
    return bytes;
  }

  async upload(url: string, bytes: Buffer): Promise<void> {
    const { acceptUpload } = await import('../content/storage.js');
    await acceptUpload(this.ctx, url, bytes);
  }

  /** The background workers (loaded only by the commands that run them). */
  private workers?: Promise<typeof import('../workers.js')>;

  runWorkers(): void {
    this.workers ??= import('../workers.js').then((w) => (w.startWorkers(this.ctx), w));
  }

  async close() {
    if (this.workers) await (await this.workers).stopWorkers(this.ctx); // abandoned work stays in the store
    return this.onClose();
  }
}
