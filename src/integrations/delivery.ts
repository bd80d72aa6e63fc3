import { randomUUID } from 'node:crypto';
import { heldElsewhere, withLease } from '../kernel/leases.js';
import type { Context } from '../kernel/context.js';
import type { EventRecord, IntegrationRecord, LogLine } from './model.js';
import { forwards, log } from './events.js';
import { workerRegistry, trackScan } from '../kernel/worker-registry.js';

// Development-mode delivery, off the request path: events are stored `delivery: pending` in the
// same write that records them, and this worker (run by the process holding the store: `docs
// serve`, or an in-process command that installs/uninstalls/changes an installation) POSTs each
// one to the integration's tunnel URL with undici. One attempt has a deadline
// (DOCS_DELIVERY_TIMEOUT_MS, default 5000); network errors, timeouts, 429 and 5xx are retried,
// at most 3 attempts with backoff (250 ms, 500 ms); any other answer is final. Every attempt
// (status code or error, duration) goes into the event's trace, the outcome into its `status`.
// Events left pending by a process that stopped are taken up by the next one.

export const ATTEMPTS = 3;
const BACKOFF_MS = 250;
const CONCURRENCY = 4;
/** On stop, deliveries under way get this long to finish before they are abandoned (left pending). */
const STOP_GRACE_MS = 3000;

const timeoutMs = () => Number(process.env.DOCS_DELIVERY_TIMEOUT_MS) || 5000;

/** The CSP as one header value: a string as given; an object as `directive value; ...`. */
export function cspHeader(csp: IntegrationRecord['contentSecurityPolicy']): string | undefined {
  if (csp === undefined) return undefined;
  if (typeof csp === 'string') return csp;
  return Object.entries(csp).map(([k, v]) => `${k} ${v}`.trim()).join('; ');
}

interface Attempt {
  ok: boolean;
  retry: boolean;
  line: LogLine;
}

type Dispatcher = import('undici').Dispatcher;

async function attempt(ctx: Context, dispatcher: Dispatcher, i: IntegrationRecord, e: EventRecord, n: number, signal: AbortSignal): Promise<Attempt> {
  const { request } = await import('undici');
  const url = i.dev!.tunnelUrl;
  const csp = cspHeader(i.contentSecurityPolicy);
  const started = performance.now();
  const ms = () => `${Math.round(performance.now() - started)} ms`;
  const which = `attempt ${n}/${ATTEMPTS}`;
  try {
    const res = await request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'docs-integration-dev',
        'x-docs-integration': i.name,
        'x-docs-event-id': e.id,
        ...(csp ? { 'content-security-policy': csp } : {}),
      },
      body: JSON.stringify(e.payload),
      signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs())]),
      dispatcher,
    });
    await res.body.dump();
    const code = res.statusCode;
    const ok = code >= 200 && code < 300;
    return {
      ok,
      retry: code === 429 || code >= 500,
      line: log(ctx, ok ? 'info' : 'error', `POST ${url} -> ${code} in ${ms()} (${which})`),
    };
  } catch (err: any) {
    const timedOut = err?.name === 'TimeoutError' || err?.cause?.name === 'TimeoutError';
    const reason = timedOut ? `timed out after ${timeoutMs()} ms` : `${err?.code ?? err?.name ?? 'error'}: ${err?.message ?? err}`;
    return { ok: false, retry: !signal.aborted, line: log(ctx, 'error', `POST ${url} failed in ${ms()} (${which}): ${reason}`) };
  }
}

class Deliverer {
  private readonly running = new Map<string, AbortController>();
  private readonly settled = new Set<Promise<void>>();
  private stopped = false;
  /** The worker's own connection pool: closed on stop, so keep-alive sockets never hold a CLI process open. */
  private agent?: Promise<Dispatcher>;

  /** This worker's name on the leases it takes. */
  private readonly owner = randomUUID();

  constructor(private readonly ctx: Context) {}

  private dispatcher(): Promise<Dispatcher> {
    return (this.agent ??= import('undici').then(({ Agent }) => new Agent({ keepAliveTimeout: 1000 })));
  }

  kick(): void {
    if (this.stopped) return;
    trackScan(this.settled, 'integration event delivery', () => this.scan(), () => this.kick());
  }

  private async scan(): Promise<void> {
    const pending = await this.ctx.store.read((tx) => tx.find<EventRecord>('integrationEvents', 'delivery', 'pending'));
    if (this.stopped) return;
    pending.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.seq - b.seq);
    for (const e of pending) {
      if (this.running.size >= CONCURRENCY) break;
      if (this.running.has(e.id)) continue;
      const abort = new AbortController();
      this.running.set(e.id, abort);
      const p = this.deliver(e.id, abort.signal)
        .catch((err) => {
          if (process.env.DEBUG) console.error('integration event delivery:', err);
        })
        .finally(() => {
          this.running.delete(e.id);
          this.settled.delete(p);
          this.kick();
        });
      this.settled.add(p);
    }
  }

  /** Runs the job under its lease: with a shared (PostgreSQL) store another process may hold it. */
  private async deliver(eventId: string, signal: AbortSignal): Promise<void> {
    const ran = await withLease(this.ctx, `delivery:${eventId}`, this.owner, () => this.deliverLeased(eventId, signal));
    // Another process runs it: look again later, not in a loop of scans.
    if (!ran) await heldElsewhere(signal);
  }

  private async deliverLeased(eventId: string, signal: AbortSignal): Promise<void> {
    const ctx = this.ctx;
    const found = await ctx.store.read((tx) => {
      const e = tx.get<EventRecord>('integrationEvents', eventId);
      return e && { e, i: tx.get<IntegrationRecord>('integrations', e.integration) };
    });
    if (!found || found.e.delivery !== 'pending') return;
    const { e, i } = found;
    const lines: LogLine[] = [];
    let ok = false;
    if (!i || !forwards(i, e.organization)) {
      lines.push(log(ctx, 'info', 'not delivered: development mode was turned off before delivery'));
      ok = true;
    } else {
      for (let n = 1; n <= ATTEMPTS; n++) {
        const a = await attempt(ctx, await this.dispatcher(), i, e, n, signal);
        if (signal.aborted) return; // abandoned: stays pending for the next process
        lines.push(a.line);
        ok = a.ok;
        if (ok || !a.retry) break;
        if (n < ATTEMPTS) await new Promise((r) => setTimeout(r, BACKOFF_MS * 2 ** (n - 1)));
      }
      lines.push(log(ctx, ok ? 'info' : 'error', ok ? 'delivered' : `delivery failed`));
    }
    await ctx.store.write((tx) => {
      const cur = tx.get<EventRecord>('integrationEvents', eventId);
      if (!cur) return; // the integration was deleted meanwhile
      tx.put<EventRecord>('integrationEvents', { ...cur, delivery: 'done', status: ok ? 'success' : 'failed', trace: [...cur.trace, ...lines] });
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const grace = new Promise<void>((r) => setTimeout(r, STOP_GRACE_MS).unref());
    await Promise.race([Promise.allSettled([...this.settled]), grace]);
    for (const a of this.running.values()) a.abort();
    await Promise.allSettled([...this.settled]);
    if (this.agent) await (await this.agent).destroy();
  }

  async idle(): Promise<void> {
    while (this.settled.size) await Promise.allSettled([...this.settled]);
  }
}

const workers = workerRegistry((ctx) => new Deliverer(ctx));

/** Starts this worker in this process for this store, taking up waiting work. */
export const startDelivery = workers.start;
/** Tells this process's worker, if it runs one, that work is waiting. */
export const kickDelivery = workers.kick;
export const stopDelivery = workers.stop;
export const deliveryIdle = workers.idle;
