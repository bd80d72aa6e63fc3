import { AskQuestions } from '../ask/tables.js';
import { contextBase, type Context } from '../kernel/context.js';
import { trackScan, workerRegistry } from '../kernel/worker-registry.js';
import { Organizations } from '../organizations/tables.js';
import { Sites } from '../sites/tables.js';
import type { ReadTx } from '../store/port.js';
import { scanStateId } from './finding-model.js';
import { SiteScanStates } from './finding-tables.js';
import { ContextRecords } from './tables.js';
import { fingerprintOf } from './scan-inputs.js';
import { scanSite } from './scan.js';

// When scans run (docs/manual/site-findings.md#when-scans-run): in the process holding the store,
// off the request path. On start, and on each kick (kickSiteScans: a write that changes a site's
// inputs), the worker compares each site's fingerprint (scan-inputs.ts: its questions, records and
// site spaces' revisions) with the one its last scan kept, and scans the sites whose inputs
// changed, one at a time. Only sites with evidence (questions or records) or scanned before are
// looked at: a site nobody asks and no connection feeds has no findings to keep. Questions asked
// on a site and merged pages do not kick (the ask and content areas come before this one): the
// worker looks at every site again every SCAN_EVERY_MS, as GitBook's scans run on a schedule.

/** How often the worker looks at every site again, with no kick. */
export const SCAN_EVERY_MS = 10 * 60_000;

/** The sites to look at: those named by kicks, or (on start, or a kick naming none) every site. */
function candidates(tx: ReadTx, only: Set<string> | 'all'): { organization: string; site: string }[] {
  const out: { organization: string; site: string }[] = [];
  const orgs = only === 'all' ? tx.all(Organizations).map((o) => o.id) : [...new Set([...only].flatMap((id) => tx.get(Sites, id)?.organization ?? []))];
  for (const org of orgs.sort()) {
    const asked = new Set(tx.find(AskQuestions, 'organization', org).flatMap((q) => (q.site ? [q.site] : [])));
    for (const site of tx.find(Sites, 'organization', org).sort((a, b) => a.id.localeCompare(b.id))) {
      if (only !== 'all' && !only.has(site.id)) continue;
      const state = tx.get(SiteScanStates, scanStateId(site.id));
      if (!state && !asked.has(site.id) && !tx.find(ContextRecords, 'site', site.id).length) continue;
      if (state?.fingerprint === fingerprintOf(tx, site)) continue;
      out.push({ organization: org, site: site.id });
    }
  }
  return out;
}

class SiteScanner {
  private readonly settled = new Set<Promise<void>>();
  private running: Promise<void> | undefined;
  private wanted: Set<string> | 'all' | undefined;
  private stopped = false;

  constructor(private readonly ctx: Context) {}

  /** Looks at `site` (or every site) again. */
  want(site?: string): void {
    if (!site || this.wanted === 'all') this.wanted = 'all';
    else {
      this.wanted ??= new Set();
      this.wanted.add(site);
    }
  }

  kick(): void {
    if (this.stopped || this.running) return;
    if (!this.wanted) this.wanted = 'all';
    this.running = (async () => {
      while (this.wanted && !this.stopped) {
        const only = this.wanted;
        this.wanted = undefined;
        const todo = await this.ctx.store.read((tx) => candidates(tx, only));
        for (const { organization, site } of todo) {
          if (this.stopped) break;
          await scanSite(this.ctx, organization, site);
        }
      }
    })().finally(() => {
      this.running = undefined;
      if (this.wanted && !this.stopped)
        this.kick(); // asked for while the last look ended
      else if (!this.stopped) this.schedule();
    });
    trackScan(
      this.settled,
      'site scans',
      () => this.running!,
      () => this.kick(),
    );
  }

  private timer: NodeJS.Timeout | undefined;

  /** The next look at every site, SCAN_EVERY_MS from now (never keeping the process alive). */
  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.want();
      this.kick();
    }, SCAN_EVERY_MS).unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.idle();
  }

  async idle(): Promise<void> {
    while (this.settled.size) await Promise.all([...this.settled]);
  }
}

const scanners = new WeakMap<Context, SiteScanner>();
const workers = workerRegistry((ctx) => {
  const w = new SiteScanner(ctx);
  scanners.set(ctx, w);
  return w;
});

/** Starts the site scan worker of this store in this process: every site whose inputs changed is scanned. */
export const startSiteScans = workers.start;
export const stopSiteScans = workers.stop;
export const siteScansIdle = workers.idle;

/** Tells this process's worker, if it runs one, that a site's inputs (or any site's, without `site`) changed. */
export function kickSiteScans(ctx: Context, site?: string): void {
  scanners.get(contextBase(ctx))?.want(site);
  workers.kick(ctx);
}
