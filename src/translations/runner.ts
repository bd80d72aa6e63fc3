import { randomUUID } from 'node:crypto';
import { heldElsewhere, withLease } from '../kernel/leases.js';
import type { Context } from '../kernel/context.js';
import { DocsError } from '../kernel/errors.js';
import { createSpace } from '../spaces/service.js';
import type { SpaceRecord } from '../spaces/model.js';
import type { WriteTx } from '../store/port.js';
import { countWords, readSourcePages, spaceTitle, writeTranslatedPages, type SourceContent } from './content.js';
import type { RunError, TranslationRecord } from './model.js';
import { configuredTranslator, TranslatorError } from './translator.js';
import { glossaryOf, protectTerms, termsFor } from './glossary.js';
import { workerRegistry, trackScan } from '../kernel/worker-registry.js';
import { Spaces } from '../spaces/tables.js';
import { recordAIUsage } from '../organizations/ai-usage.js';
import { Translations } from './tables.js';

// Translation runs, off the request path, in whichever process holds the store (`docs serve`,
// or an in-process `docs translations run --wait`). States (docs/manual/translations.md):
//   run requested -> pending (queue: waiting) -> running -> completed
//                                                       \-> pending with `error` (the reason)
// A run reads the source content in one write (a consistent snapshot, marked running), sends
// every text through the Translator, then writes the result in one write, only if no newer run
// was asked for meanwhile (generation). A run left `running` by a process that stopped is taken
// up again at start.

const CONCURRENCY = 2;

interface Taken {
  generation: number;
  content: SourceContent;
  from: string;
  to: string;
  /** Glossary terms (source, target), longest first. */
  terms: [string, string][];
}

class Runner {
  private readonly running = new Map<string, AbortController>();
  private readonly settled = new Set<Promise<void>>();
  private stopped = false;

  /** This worker's name on the leases it takes. */
  private readonly owner = randomUUID();

  constructor(private readonly ctx: Context) {}

  kick(): void {
    if (this.stopped) return;
    trackScan(
      this.settled,
      'translation run',
      () => this.scan(),
      () => this.kick(),
    );
  }

  private async scan(): Promise<void> {
    const waiting = (await this.ctx.store.read((tx) => tx.find(Translations, 'queue', 'waiting'))).sort(
      (a, b) => a.updatedAt.localeCompare(b.updatedAt) || a.id.localeCompare(b.id),
    );
    if (this.stopped) return;
    for (const t of waiting) {
      if (this.running.size >= CONCURRENCY) break;
      if (this.running.has(t.id)) continue;
      const abort = new AbortController();
      this.running.set(t.id, abort);
      const p = this.run(t.id, abort.signal)
        .catch((err) => {
          if (process.env.DEBUG) console.error('translation run:', err);
        })
        .finally(() => {
          this.running.delete(t.id);
          this.settled.delete(p);
          this.kick(); // a run asked for meanwhile (a newer generation) is still waiting
        });
      this.settled.add(p);
    }
  }

  /** Runs the job under its lease: with a shared (PostgreSQL) store another process may hold it. */
  private async run(id: string, signal: AbortSignal): Promise<void> {
    const ran = await withLease(this.ctx, `translation:${id}`, this.owner, () => this.runLeased(id, signal));
    // Another process runs it: look again later, not in a loop of scans.
    if (!ran) await heldElsewhere(signal);
  }

  private async runLeased(id: string, signal: AbortSignal): Promise<void> {
    const ctx = this.ctx;
    const taken = await ctx.store.write((tx): Taken | undefined => {
      const t = tx.get(Translations, id);
      if (t?.queue !== 'waiting') return undefined;
      let content: SourceContent;
      try {
        content = readSourcePages(tx, t.source.space);
      } catch (err) {
        if (!(err instanceof DocsError)) throw err;
        fail(tx, ctx, t, 'SOURCE_MISSING', err.message);
        return undefined;
      }
      tx.put(Translations, { ...t, status: 'running', startedAt: ctx.clock.now().toISOString() });
      // The glossary's terms for this pair of languages, as the run starts (docs/manual/translations.md#glossary).
      const terms = termsFor(glossaryOf(tx, t.organization), t.source.language, t.language);
      return { generation: t.generation, content, from: t.source.language, to: t.language, terms };
    });
    if (!taken) return;
    const end = (fn: (tx: WriteTx, t: TranslationRecord) => void) =>
      ctx.store.write((tx) => {
        const t = tx.get(Translations, id);
        if (t && t.generation === taken.generation && t.queue === 'waiting') fn(tx, t);
      });

    const translator = configuredTranslator();
    if (!translator) {
      // Never a copy passed off as a translation: without a translator the run fails, saying so.
      await end((tx, t) =>
        fail(tx, ctx, t, 'NO_TRANSLATOR', 'no translator is configured: set DOCS_TRANSLATOR_URL to a LibreTranslate-compatible service and run again'),
      );
      return;
    }
    const { content } = taken;
    const texts = [content.title, ...content.pages.flatMap((p) => [p.title, p.markdown])];
    let out: string[];
    try {
      const glossary = protectTerms(texts, taken.terms);
      out = glossary.restore(await translator.translate(glossary.texts, taken.from, taken.to, signal));
    } catch (err) {
      if (signal.aborted) return; // stopping: the run stays queued for the next process
      const e = err instanceof TranslatorError ? err : new TranslatorError('TRANSLATOR_ERROR', (err as Error).message);
      await end((tx, t) => fail(tx, ctx, t, e.code, e.message));
      return;
    }
    const pages = content.pages.map((p, i) => ({ id: p.id, title: out[1 + 2 * i]!, markdown: out[2 + 2 * i]! }));
    await end((tx, t) => {
      let target: SpaceRecord;
      try {
        target = targetSpace(tx, ctx, t, out[0]!);
      } catch (err) {
        if (!(err instanceof DocsError)) throw err;
        fail(tx, ctx, t, 'TARGET_REFUSED', `creating the target space: ${err.message}`);
        return;
      }
      const revision = writeTranslatedPages(tx, ctx, target.id, { title: out[0]!, pages, tree: content.tree, files: content.files });
      const now = ctx.clock.now();
      const seconds = Math.max(0, Math.round((now.getTime() - Date.parse(t.startedAt ?? now.toISOString())) / 1000));
      const words = texts.reduce((n, s) => n + countWords(s), 0);
      const seen = [...new Set([...t.pages, ...content.pages.map((p) => p.id)])];
      const { error: _e, startedAt: _s, ...rest } = t;
      tx.put(Translations, {
        ...rest,
        status: 'completed',
        queue: 'idle',
        result: { space: target.id, revision: revision.id, language: t.language },
        pages: seen,
        stats: {
          runs: t.stats.runs + 1,
          totalWords: t.stats.totalWords + words,
          totalPages: seen.length,
          totalDuration: t.stats.totalDuration + seconds,
          latestRunDuration: seconds,
          latestPages: content.pages.length,
          latestWords: words,
        },
        updatedAt: now.toISOString(),
      });
      recordAIUsage(tx, t.organization, 'translation', now.toISOString());
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

/**
 * The space a run writes into: the one of the previous runs while it exists (not deleted), else
 * a new one at the organization's root, in the target language, created with the rights of the
 * member who asked for the run.
 */
function targetSpace(tx: WriteTx, ctx: Context, t: TranslationRecord, title: string): SpaceRecord {
  const previous = t.result && tx.get(Spaces, t.result.space);
  if (previous && !previous.deletedAt && previous.organization === t.organization) return previous;
  const caller = { userId: t.requestedBy ?? t.createdBy };
  return createSpace(tx, ctx, caller, t.organization, { title: spaceTitle(title), language: t.language }).row;
}

/** The run ended without a result: back to pending, with the reason; result and stats unchanged. */
function fail(tx: WriteTx, ctx: Context, t: TranslationRecord, code: RunError['code'], message: string): void {
  const now = ctx.clock.now().toISOString();
  const { startedAt: _s, ...rest } = t;
  tx.put(Translations, { ...rest, status: 'pending', queue: 'idle', error: { code, message, at: now }, updatedAt: now });
}

const workers = workerRegistry((ctx) => new Runner(ctx));

/** Starts this worker in this process for this store, taking up waiting work. */
export const startTranslationRuns = workers.start;
/** Tells this process's worker, if it runs one, that work is waiting. */
export const kickTranslationRuns = workers.kick;
export const stopTranslationRuns = workers.stop;
export const translationsIdle = workers.idle;
