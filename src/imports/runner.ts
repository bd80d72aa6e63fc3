import { contextBase } from '../kernel/context.js';
import { randomUUID } from 'node:crypto';
import { heldElsewhere, withLease } from '../kernel/leases.js';
import type { Context } from '../kernel/context.js';
import { DocsError } from '../kernel/errors.js';
import { trackScan, workerRegistry } from '../kernel/worker-registry.js';
import { loadParser } from '../content/link-refs.js';
import { readLayout, type Layout } from './layout.js';
import type { ImportRunRecord } from './model.js';
import { fileKeys, filesOfSources, readKeys, requireRunnable, storeAssets, writePages } from './service.js';
import { ImportRuns } from './tables.js';

// Import runs, off the request path, in whichever process holds the store (`docs serve`, or an
// in-process `docs imports start --wait`): pending -> in-progress (the source read: the files'
// bytes, or the URL fetched through the outbound guard) -> the layout read -> one write that
// puts the pages into a change request and marks the run completed, only if it was not cancelled
// meanwhile. A cancel aborts the fetch of a running run at once (docs/manual/imports-and-git.md#import-runs).

const CONCURRENCY = 2;

class Runner {
  private readonly running = new Map<string, AbortController>();
  private readonly settled = new Set<Promise<void>>();
  private stopped = false;
  private readonly owner = randomUUID();

  constructor(private readonly ctx: Context) {}

  kick(): void {
    if (this.stopped) return;
    trackScan(
      this.settled,
      'import run',
      () => this.scan(),
      () => this.kick(),
    );
  }

  cancel(id: string): void {
    this.running.get(id)?.abort();
  }

  private async scan(): Promise<void> {
    const waiting = (await this.ctx.store.read((tx) => tx.find(ImportRuns, 'queue', 'waiting'))).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    if (this.stopped) return;
    for (const r of waiting) {
      if (this.running.size >= CONCURRENCY) break;
      if (this.running.has(r.id)) continue;
      const abort = new AbortController();
      this.running.set(r.id, abort);
      const p = withLease(this.ctx, `import:${r.id}`, this.owner, () => this.run(r.id, abort.signal))
        .then((ran) => (ran ? undefined : heldElsewhere(abort.signal)))
        .catch((err) => {
          if (process.env.DEBUG) console.error('import run:', err);
        })
        .finally(() => {
          this.running.delete(r.id);
          this.settled.delete(p);
          if (!abort.signal.aborted || !this.stopped) this.kick();
        });
      this.settled.add(p);
    }
  }

  private async run(id: string, signal: AbortSignal): Promise<void> {
    const ctx = this.ctx;
    const started = await ctx.store.write((tx) => {
      const r = tx.get(ImportRuns, id);
      if (!requireRunnable(r)) return undefined;
      const now = ctx.clock.now().toISOString();
      return tx.put(ImportRuns, { ...r, status: 'in-progress', startedAt: r.startedAt ?? now, updatedAt: now });
    });
    if (!started) return;
    let layout: Layout;
    let label: string;
    try {
      let items: { name: string; bytes: Buffer }[];
      if (started.source.type === 'file') {
        const src = started.source;
        const keys = await ctx.store.read((tx) => fileKeys(tx, started.target, src.files));
        items = await readKeys(ctx, keys);
        label = keys.map((k) => k.name).join(', ');
      } else {
        const { guardedFetchBytes } = await import('../openapi/fetch.js');
        const got = await guardedFetchBytes(started.source.url, { signal });
        const name = new URL(got.url).pathname.split('/').pop() || 'index.md';
        const md = /markdown|text\/plain/.test(got.contentType ?? '') && !/\.(md|mdx|markdown)$/i.test(name) ? `${name}.md` : name;
        items = [{ name: md, bytes: got.bytes }];
        label = started.source.url;
      }
      const files = await filesOfSources(items);
      layout = readLayout(files, await loadParser());
    } catch (err) {
      if (signal.aborted) return; // cancelled (the run says so already) or stopping (taken up again)
      await this.fail(id, err);
      return;
    }
    if (signal.aborted) return;
    const uploads = await storeAssets(ctx, layout.assets);
    const parse = await loadParser();
    try {
      await ctx.store.write((tx) => {
        const r = tx.get(ImportRuns, id);
        if (!requireRunnable(r)) return; // cancelled while it ran: nothing is written
        const caller = { userId: r.createdBy };
        const subject = `Import from ${label}`.slice(0, 100);
        const { cr, created, files } = writePages(
          tx,
          ctx,
          caller,
          r.target.space,
          r.target.changeRequest,
          subject,
          layout,
          r.target.page ?? null,
          uploads,
          parse,
        );
        const groups = new Set<string>();
        const mark = (ps: Layout['pages'], at = { i: 0 }) => {
          for (const p of ps) {
            if (p.group || p.children.length) groups.add(`p${at.i}`);
            at.i++;
            mark(p.children, at);
          }
        };
        mark(layout.pages);
        const now = ctx.clock.now().toISOString();
        tx.put(ImportRuns, {
          ...r,
          status: 'completed',
          queue: 'idle',
          layout: layout.kind,
          changeRequest: cr.id,
          completedAt: now,
          updatedAt: now,
          pages: created.map((c) => ({
            id: c.id,
            type: groups.has(c.ref) ? ('folder' as const) : ('page' as const),
            ...(files.get(c.ref) ? { sourceURL: files.get(c.ref)! } : {}),
          })),
        });
      });
    } catch (err) {
      await this.fail(id, err);
    }
  }

  private async fail(id: string, err: unknown): Promise<void> {
    if (!(err instanceof DocsError) && !(err as Error)?.message) throw err;
    const reason = (err as Error).message;
    await this.ctx.store.write((tx) => {
      const r = tx.get(ImportRuns, id);
      if (!requireRunnable(r)) return;
      const now = this.ctx.clock.now().toISOString();
      tx.put(ImportRuns, { ...(r as ImportRunRecord), status: 'failed', queue: 'idle', reason, completedAt: now, updatedAt: now });
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const a of this.running.values()) a.abort();
    await Promise.allSettled([...this.settled]);
  }

  async idle(): Promise<void> {
    while (this.settled.size) await Promise.allSettled([...this.settled]);
  }
}

const runners = new WeakMap<Context, Runner>();
const workers = workerRegistry((ctx) => {
  const r = new Runner(ctx);
  runners.set(contextBase(ctx), r);
  return r;
});

export const startImportRuns = workers.start;
export const kickImportRuns = workers.kick;
export const stopImportRuns = workers.stop;
export const importsIdle = workers.idle;
/** Aborts a run this process is running (its fetch), after the cancel was written. */
export const abortImportRun = (ctx: Context, id: string) => runners.get(contextBase(ctx))?.cancel(id);
