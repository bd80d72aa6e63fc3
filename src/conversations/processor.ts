import type { Context } from '../kernel/context.js';
import { pendingConversations } from './service.js';
import { workerRegistry } from '../kernel/worker-registry.js';

// Processing runs off the request path, in whichever process holds the store (`docs serve`, or
// an in-process `docs conversations ingest --wait`): ingestion stores conversations as `pending`
// and answers at once; this worker then processes them in ingestion order, a few per write, so
// that clustering sees them in a deterministic order. Conversations left pending by a process
// that stopped are taken up at start. The work is synchronous and CPU-only, so a batch is one
// atomic write: a crash loses nothing (the batch is still pending) and duplicates nothing.

const BATCH = 25;

class Processor {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(private readonly ctx: Context) {}

  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((err) => {
        if (process.env.DEBUG) console.error('conversations processing:', err);
        setTimeout(() => this.kick(), 5000).unref(); // the store could not write: try later
      })
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async drain(): Promise<void> {
    while (!this.stopped) {
      const batch = await this.ctx.store.read((tx) =>
        pendingConversations(tx)
          .slice(0, BATCH)
          .map((c) => [c.id, c.generation] as const),
      );
      if (!batch.length) return;
      const { processConversation } = await import('./process.js');
      await this.ctx.store.write((tx) => {
        for (const [id, generation] of batch) processConversation(tx, this.ctx, id, generation);
      });
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  async idle(): Promise<void> {
    while (this.running) await this.running;
  }
}

const workers = workerRegistry((ctx) => new Processor(ctx));

/** Starts this worker in this process for this store, taking up waiting work. */
export const startConversationProcessing = workers.start;
/** Tells this process's worker, if it runs one, that work is waiting. */
export const kickConversationProcessing = workers.kick;
export const stopConversationProcessing = workers.stop;
export const conversationsIdle = workers.idle;
