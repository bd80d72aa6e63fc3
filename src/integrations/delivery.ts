import { randomUUID } from 'node:crypto';
import { heldElsewhere, withLease } from '../kernel/leases.js';
import type { Context } from '../kernel/context.js';
import type { EventRecord, IntegrationRecord, LogLine } from './model.js';
import { forwards, log } from './events.js';
import { workerRegistry, trackScan } from '../kernel/worker-registry.js';
import { guardedLookup, loadIpaddr, REFUSED_CODE, refusedLiteral, type Ipaddr } from '../kernel/outbound-guard.js';
import { PRIVATE_TUNNEL_HINT } from './service.js';
import { IntegrationEvents, Integrations } from './tables.js';

// Development-mode delivery, off the request path: events are stored `delivery: pending` in the
// same write that records them, and this worker (run by the process holding the store: `docs
// serve`, or an in-process command that installs/uninstalls/changes an installation) POSTs each
// one to the integration's tunnel URL with undici. One attempt has a deadline
// (DOCS_DELIVERY_TIMEOUT_MS, default 5000); network errors, timeouts, 429 and 5xx are retried,
// at most 3 attempts with backoff (250 ms, 500 ms); any other answer is final. Every attempt
// (status code or error, duration) goes into the event's trace, the outcome into its `status`.
// Events left pending by a process that stopped are taken up by the next one.
// The tunnel reaches loopback and private addresses only when the instance owner set it through
// the in-process CLI or this server runs with --allow-private-tunnels (src/integrations/service.ts);
// otherwise it goes through the guard of OpenAPI fetches (src/kernel/outbound-guard.ts): an IP
// literal is checked here, a host name in the connection's DNS lookup, and a refusal is final
// (no retry), recorded in the trace without a word from the address (open or closed port alike).

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
  return Object.entries(csp)
    .map(([k, v]) => `${k} ${v}`.trim())
    .join('; ');
}

interface Attempt {
  ok: boolean;
  retry: boolean;
  line: LogLine;
}

type Dispatcher = import('undici').Dispatcher;
interface Dispatchers {
  ip: Ipaddr;
  /** For tunnels that may reach any address. */
  open: Dispatcher;
  /** For the others: connects only to public addresses a host name resolves to. */
  guarded: Dispatcher;
}

/** Whether this process delivers the integration's events to loopback and private addresses. */
export const deliversPrivate = (ctx: Context, i: IntegrationRecord) => !!ctx.allowPrivateTunnels || !!i.dev?.privateAllowed;

const REFUSED_HINT = `refused (${PRIVATE_TUNNEL_HINT})`;

async function attempt(ctx: Context, dispatchers: Dispatchers, i: IntegrationRecord, e: EventRecord, n: number, signal: AbortSignal): Promise<Attempt> {
  const { request } = await import('undici');
  const url = i.dev!.tunnelUrl;
  const csp = cspHeader(i.contentSecurityPolicy);
  const started = performance.now();
  const ms = () => `${Math.round(performance.now() - started)} ms`;
  const which = `attempt ${n}/${ATTEMPTS}`;
  const open = deliversPrivate(ctx, i);
  const refused = (why: string): Attempt => ({ ok: false, retry: false, line: log(ctx, 'error', `POST ${url} not sent (${which}): ${why}`) });
  // An IP literal is connected to without a DNS lookup: judged here.
  const why = open ? undefined : refusedLiteral(dispatchers.ip, new URL(url));
  if (why) return refused(`${why}: ${REFUSED_HINT}`);
  const dispatcher = open ? dispatchers.open : dispatchers.guarded;
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
    if (err?.code === REFUSED_CODE || err?.cause?.code === REFUSED_CODE) return refused(err.cause?.code === REFUSED_CODE ? err.cause.message : err.message);
    const timedOut = err?.name === 'TimeoutError' || err?.cause?.name === 'TimeoutError';
    const reason = timedOut ? `timed out after ${timeoutMs()} ms` : `${err?.code ?? err?.name ?? 'error'}: ${err?.message ?? err}`;
    return { ok: false, retry: !signal.aborted, line: log(ctx, 'error', `POST ${url} failed in ${ms()} (${which}): ${reason}`) };
  }
}

class Deliverer {
  private readonly running = new Map<string, AbortController>();
  private readonly settled = new Set<Promise<void>>();
  private stopped = false;
  /** The worker's own connection pools (open, and guarded: see attempt): closed on stop, so keep-alive sockets never hold a CLI process open. */
  private agent?: Promise<Dispatchers>;

  /** This worker's name on the leases it takes. */
  private readonly owner = randomUUID();

  constructor(private readonly ctx: Context) {}

  private dispatchers(): Promise<Dispatchers> {
    return (this.agent ??= Promise.all([import('undici'), loadIpaddr()]).then(([{ Agent }, ip]) => ({
      ip,
      open: new Agent({ keepAliveTimeout: 1000 }),
      guarded: new Agent({ keepAliveTimeout: 1000, connect: { lookup: guardedLookup(ip, REFUSED_HINT) as any } }),
    })));
  }

  private timer?: NodeJS.Timeout;
  private timerAt = Infinity;

  /** Scans again in `ms` (the earliest scheduled task), unless a timer fires sooner already. */
  private wakeAt(ms: number): void {
    const at = Date.now() + ms;
    if (this.timer && this.timerAt <= at) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.kick();
    }, ms).unref();
  }

  kick(): void {
    if (this.stopped) return;
    trackScan(
      this.settled,
      'integration event delivery',
      () => this.scan(),
      () => this.kick(),
    );
  }

  private async scan(): Promise<void> {
    const pending = await this.ctx.store.read((tx) => tx.find(IntegrationEvents, 'delivery', 'pending'));
    if (this.stopped) return;
    pending.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.seq - b.seq);
    // A task queued with a delay (queueIntegrationTask's `schedule`) waits for its time: one timer, for the earliest.
    const now = this.ctx.clock.now().getTime();
    const later = pending.filter((e) => e.due && Date.parse(e.due) > now);
    if (later.length) this.wakeAt(Math.min(...later.map((e) => Date.parse(e.due!))) - now);
    for (const e of pending) {
      if (e.due && Date.parse(e.due) > now) continue;
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
      const e = tx.get(IntegrationEvents, eventId);
      return e && { e, i: tx.get(Integrations, e.integration) };
    });
    if (found?.e.delivery !== 'pending') return;
    const { e, i } = found;
    const lines: LogLine[] = [];
    let ok = false;
    if (!i || !forwards(i, e.organization)) {
      lines.push(log(ctx, 'info', 'not delivered: development mode was turned off before delivery'));
      ok = true;
    } else {
      for (let n = 1; n <= ATTEMPTS; n++) {
        const a = await attempt(ctx, await this.dispatchers(), i, e, n, signal);
        if (signal.aborted) return; // abandoned: stays pending for the next process
        lines.push(a.line);
        ok = a.ok;
        if (ok || !a.retry) break;
        if (n < ATTEMPTS) await new Promise((r) => setTimeout(r, BACKOFF_MS * 2 ** (n - 1)));
      }
      lines.push(log(ctx, ok ? 'info' : 'error', ok ? 'delivered' : `delivery failed`));
    }
    await ctx.store.write((tx) => {
      const cur = tx.get(IntegrationEvents, eventId);
      if (!cur) return; // the integration was deleted meanwhile
      tx.put(IntegrationEvents, { ...cur, delivery: 'done', status: ok ? 'success' : 'failed', trace: [...cur.trace, ...lines] });
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const grace = new Promise<void>((r) => setTimeout(r, STOP_GRACE_MS).unref());
    await Promise.race([Promise.allSettled([...this.settled]), grace]);
    for (const a of this.running.values()) a.abort();
    await Promise.allSettled([...this.settled]);
    if (this.agent) {
      const d = await this.agent;
      await Promise.all([d.open.destroy(), d.guarded.destroy()]);
    }
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
