import { randomUUID } from 'node:crypto';
import { heldElsewhere, withLease } from '../kernel/leases.js';
import type { Context } from '../kernel/context.js';
import { newId } from '../kernel/ids.js';
import type { ReadTx } from '../store/port.js';
import { removeContent, writeContent } from './content-files.js';
import type { OpenAPISpecRecord } from './model.js';
import { processSource, type Outcome } from './pipeline.js';
import { workerRegistry, trackScan } from '../kernel/worker-registry.js';
import { OpenapiSources, OpenapiSpecs, OpenapiVersions } from './tables.js';

// Processing runs off the request path, in whichever process holds the store: `docs serve`
// (started with the server; specs left `pending` or `progress` by an earlier process are taken
// up at start) or an in-process `docs openapi put --wait`. The state is in the store:
//   pending  -> progress (this process took it) -> complete (with or without an error code).
// Every create/put bumps the spec's `generation`; a result is written only if the generation is
// still the one processed, so a put during processing restarts it and the stale result is dropped.

const CONCURRENCY = 2;

/**
 * Told of every new version this process records, with its documents (the `filesystem` JSON text):
 * what renders specs (the published API reference) reads them here, off any request's path,
 * instead of from the file on the first page asked for.
 */
export type VersionListener = (version: { id: string; spec: string; sourceURL?: string }, filesystem: string) => void;
const versionListeners = new Set<VersionListener>();
export const onVersion = (fn: VersionListener) => void versionListeners.add(fn);
/** After an unexpected failure (e.g. the store could not write), wait before trying that spec again. */
const RETRY_MS = 5000;

class Processor {
  private readonly running = new Map<string, AbortController>();
  private readonly settled = new Set<Promise<void>>();
  private readonly retryAt = new Map<string, number>();
  private stopped = false;

  /** This worker's name on the leases it takes. */
  private readonly owner = randomUUID();

  constructor(private readonly ctx: Context) {}

  /** Takes up every spec waiting to be processed, as far as the concurrency allows. */
  kick(): void {
    if (this.stopped || this.running.size >= CONCURRENCY) return;
    trackScan(
      this.settled,
      'openapi processing',
      () => this.scan(),
      () => this.kick(),
    );
  }

  private async scan(): Promise<void> {
    const waiting = await this.ctx.store.read((tx) => [
      ...tx.find(OpenapiSpecs, 'processingState', 'pending'),
      // `progress` in the store with nothing running here: a process stopped while processing it.
      ...tx.find(OpenapiSpecs, 'processingState', 'progress'),
    ]);
    if (this.stopped) return;
    waiting.sort((a, b) => a.updatedAt.localeCompare(b.updatedAt));
    for (const spec of waiting) {
      if (this.running.size >= CONCURRENCY) break;
      if (this.running.has(spec.id) || (this.retryAt.get(spec.id) ?? 0) > Date.now()) continue;
      const abort = new AbortController();
      this.running.set(spec.id, abort);
      const p = this.run(spec.id, abort.signal)
        .then(() => {
          this.retryAt.delete(spec.id);
        })
        .catch((err) => {
          if (abort.signal.aborted) return;
          if (process.env.DEBUG) console.error('openapi processing:', err);
          // Not a failure of the spec (those are recorded on it): try again later, not in a loop.
          this.retryAt.set(spec.id, Date.now() + RETRY_MS);
          setTimeout(() => this.kick(), RETRY_MS).unref();
        })
        .finally(() => {
          this.running.delete(spec.id);
          this.settled.delete(p);
          this.kick();
        });
      this.settled.add(p);
    }
  }

  /** Runs the job under its lease: with a shared (PostgreSQL) store another process may hold it. */
  private async run(specId: string, signal: AbortSignal): Promise<void> {
    const ran = await withLease(this.ctx, `openapi:${specId}`, this.owner, () => this.runLeased(specId, signal));
    // Another process runs it: look again later, not in a loop of scans.
    if (!ran) await heldElsewhere(signal);
  }

  private async runLeased(specId: string, signal: AbortSignal): Promise<void> {
    const ctx = this.ctx;
    const taken = await ctx.store.write((tx) => {
      const spec = tx.get(OpenapiSpecs, specId);
      if (!spec || spec.processingState === 'complete') return undefined;
      const text = tx.get(OpenapiSources, specId);
      if (spec.processingState !== 'progress') tx.put(OpenapiSpecs, { ...spec, processingState: 'progress' });
      return { generation: spec.generation, source: spec.sourceURL !== undefined && !text ? { url: spec.sourceURL } : { text: text?.text ?? '' } };
    });
    if (!taken) return;
    const outcome = await processSource(taken.source, { signal });
    if (signal.aborted) return;
    await this.record(specId, taken.generation, outcome);
  }

  private async record(specId: string, generation: number, outcome: Outcome): Promise<void> {
    const ctx = this.ctx;
    const current = (tx: ReadTx) => {
      const spec = tx.get(OpenapiSpecs, specId);
      return spec && spec.generation === generation ? spec : undefined;
    };
    // A new version only when the content differs from the latest one.
    let versionId: string | undefined;
    if (outcome.ok) {
      const latest = await ctx.store.read((tx) => {
        const spec = current(tx);
        return spec?.lastVersion ? tx.get(OpenapiVersions, spec.lastVersion) : undefined;
      });
      if (latest?.hash !== outcome.hash) {
        versionId = newId();
        await writeContent(ctx, specId, versionId, outcome.filesystem, outcome.raw.text); // durable before the row that names them
      }
    }
    const kept = await ctx.store.write((tx) => {
      const spec = current(tx);
      if (!spec) return false; // deleted, or put again meanwhile: this result is stale
      const now = ctx.clock.now().toISOString();
      const { lastProcessErrorCode: _c, lastProcessedErrors: _e, ...rest } = spec;
      let next: OpenAPISpecRecord = { ...rest, processingState: 'complete', lastProcessedAt: now, lastProcessedErrorCount: 0 };
      if (!outcome.ok)
        next = { ...next, lastProcessErrorCode: outcome.errorCode, lastProcessedErrors: outcome.errors, lastProcessedErrorCount: outcome.errorCount };
      else if (versionId) {
        tx.put(OpenapiVersions, {
          id: versionId,
          spec: spec.id,
          organization: spec.organization,
          seq: spec.versionCount + 1,
          createdAt: now,
          hash: outcome.hash,
          ...(outcome.url ? { sourceURL: outcome.url } : {}),
          files: outcome.files,
          rawFormat: outcome.raw.format,
        });
        next = { ...next, versionCount: spec.versionCount + 1, lastVersion: versionId };
      }
      tx.put(OpenapiSpecs, next);
      tx.delete(OpenapiSources, spec.id); // the text is no longer needed
      return true;
    });
    if (!kept && versionId) await removeContent(ctx, specId, versionId);
    if (kept && versionId && outcome.ok) {
      for (const fn of versionListeners) {
        try {
          fn({ id: versionId, spec: specId, ...(outcome.url ? { sourceURL: outcome.url } : {}) }, outcome.filesystem);
        } catch (err) {
          if (process.env.DEBUG) console.error('openapi version listener:', err);
        }
      }
    }
  }

  /** Stops taking work and abandons what runs (left `progress`, taken up by the next process). */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const a of this.running.values()) a.abort();
    await Promise.allSettled([...this.settled]);
  }

  /** Resolves when nothing runs (tests). */
  async idle(): Promise<void> {
    while (this.settled.size) await Promise.allSettled([...this.settled]);
  }
}

const workers = workerRegistry((ctx) => new Processor(ctx));

/** Starts this worker in this process for this store, taking up waiting work. */
export const startProcessing = workers.start;
/** Tells this process's worker, if it runs one, that work is waiting. */
export const kickProcessing = workers.kick;
export const stopProcessing = workers.stop;
export const processingIdle = workers.idle;
