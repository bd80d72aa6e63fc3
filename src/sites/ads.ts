import { timingSafeEqual, createHash } from 'node:crypto';
import type { Schema } from '../contract/types.js';
import type { Caller, Context } from '../kernel/context.js';
import { DocsError, forbidden, invalid, notFound } from '../kernel/errors.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { table } from '../store/port.js';
import { Users } from '../users/tables.js';
import { SITE_ADMIN, siteOf } from './access.js';
import type { SiteRecord } from './model.js';
import { Sites } from './tables.js';

// Site ads (docs/manual/sites.md#ads). GitBook runs an ads program: a site admin submits a site
// for review with a topic (updateSiteAdsById), the ad network (a partner holding a key) lists the
// sites in review and sets them live with its zone, or rejects them (adsListSites, adsUpdateSite).
// Here there is no ad network: the settings are stored and shown (the site's `ads`), the partner
// side works for whoever holds the key this server was given (DOCS_ADS_PARTNER_KEY; without one
// it is refused), and a published page draws nothing from any ad network, live or not: no
// third-party request, the same content security policy.

export type AdsTopic = 'webdev' | 'crypto';
export interface SiteAdsRecord {
  /** The site's id. */
  id: string;
  organization: string;
  status: 'in-review' | 'live' | 'rejected' | 'disabled';
  topic?: AdsTopic;
  zoneId?: string;
  reportingId?: string;
  reason?: string;
  /** Who submitted the site for review: the contact the partner sees (`email`). */
  submittedBy: string;
  updatedAt: string;
}

/** One small global shard: the partner lists sites across organizations by status. */
export const SiteAds = table<SiteAdsRecord, 'status'>('siteAds');

/** The site's `ads` as both specs' SiteAds: `pending` (never submitted, or withdrawn) unless a row says otherwise. */
export function presentSiteAds(tx: ReadTx, site: SiteRecord, canSubmit: boolean): NonNullable<Schema<'Site'>['ads']> {
  const row = tx.get(SiteAds, site.id);
  if (!row) return { status: 'pending', submittable: canSubmit && site.published && site.visibility === 'public' };
  if (row.status === 'in-review') return { status: 'in-review', topic: row.topic! };
  if (row.status === 'rejected') return { status: 'rejected', ...(row.reason ? { reason: row.reason } : {}) };
  return { status: row.status, topic: row.topic!, zoneId: row.zoneId! };
}

/**
 * updateSiteAdsById: `in-review` submits the site (a published public site, with a topic: the
 * body's or the one it had); `disabled` turns ads off (a live site keeps its zone, to be set live
 * again by the partner; a site never live goes back to pending); `topic` alone changes the topic.
 */
export function updateSiteAds(
  tx: WriteTx,
  ctx: Context,
  caller: Caller,
  organizationId: string,
  siteId: string,
  body: { status?: 'in-review' | 'disabled'; topic?: AdsTopic } | undefined,
): void {
  const { site } = siteOf(tx, caller, organizationId, siteId, SITE_ADMIN, `changing the ads settings of site ${siteId}`);
  const b = body ?? {};
  if (b.status === undefined && b.topic === undefined) throw invalid('body: give status (in-review or disabled) or topic');
  const row = tx.get(SiteAds, site.id);
  const now = ctx.clock.now().toISOString();
  const topic = b.topic ?? row?.topic;
  if (b.status === 'disabled') {
    if (row?.zoneId) tx.put(SiteAds, { ...row, status: 'disabled', ...(topic ? { topic } : {}), updatedAt: now });
    else if (row) tx.delete(SiteAds, row.id);
    return;
  }
  if (b.status === 'in-review') {
    if (!site.published || site.visibility !== 'public') throw invalid(`status: site ${site.id} must be published and public to be submitted for ads review`);
    if (!topic) throw invalid('topic: required to submit a site for ads review (webdev or crypto)');
    if (row?.status === 'live') throw invalid(`status: site ${site.id} is live already; disable it first`);
    tx.put(SiteAds, { id: site.id, organization: site.organization, status: 'in-review', topic, submittedBy: caller.userId, updatedAt: now });
    return;
  }
  // The topic alone: of a site in the program.
  if (!row || row.status === 'rejected') throw invalid(`topic: site ${site.id} is not in the ads program (submit it with status in-review)`);
  tx.put(SiteAds, { ...row, topic: topic!, updatedAt: now });
}

/** The partner's key (header X-GitBook-Partner-Key) against the one this server was given. */
export function requirePartner(headers: Record<string, string> | undefined): void {
  const want = process.env.DOCS_ADS_PARTNER_KEY;
  if (!want) throw forbidden('no ads partner is configured on this server (DOCS_ADS_PARTNER_KEY): there is no ad network here');
  const got = headers?.['x-gitbook-partner-key'] ?? '';
  const h = (s: string) => createHash('sha256').update(s).digest();
  if (!timingSafeEqual(h(got), h(want))) throw forbidden('header X-GitBook-Partner-Key: not the ads partner key of this server');
}

type PartnerSite = { id: string; url: string; email: string; topic: AdsTopic } & (
  | { status: 'in-review' }
  | { status: 'live'; zoneId: string }
  | { status: 'rejected'; reason?: string }
);

/** adsListSites: the sites with ads configured, of one status (default in-review), oldest change first. */
export function partnerSites(tx: ReadTx, _ctx: Context, status: 'in-review' | 'live' | 'rejected', siteUrl: (site: SiteRecord) => string) {
  return tx
    .find(SiteAds, 'status', status)
    .sort((a, b) => a.updatedAt.localeCompare(b.updatedAt) || a.id.localeCompare(b.id))
    .flatMap((row): PartnerSite[] => {
      const site = tx.get(Sites, row.id);
      if (!site) return [];
      const base = { id: site.id, url: siteUrl(site), email: tx.get(Users, row.submittedBy)?.email ?? '', topic: row.topic! };
      if (row.status === 'live') return [{ ...base, status: 'live' as const, zoneId: row.zoneId! }];
      if (row.status === 'rejected') return [{ ...base, status: 'rejected' as const, ...(row.reason ? { reason: row.reason } : {}) }];
      return [{ ...base, status: 'in-review' as const }];
    });
}

/** adsUpdateSite: the partner sets a site in the program live (with its zone), rejected, or back to pending. */
export function partnerUpdate(
  tx: WriteTx,
  ctx: Context,
  siteId: string,
  body: { status: 'live'; zoneId: string; reportingId: string } | { status: 'rejected'; reason?: string } | { status: 'pending' },
): void {
  const row = tx.get(SiteAds, siteId);
  if (!row || !tx.get(Sites, siteId)) throw notFound(`site ${siteId} is not in the ads program`);
  const now = ctx.clock.now().toISOString();
  if (body.status === 'pending') {
    tx.delete(SiteAds, siteId);
    return;
  }
  if (body.status === 'live') {
    if (!body.zoneId.trim()) throw invalid('body.zoneId: must not be empty');
    tx.put(SiteAds, { ...row, status: 'live', zoneId: body.zoneId, reportingId: body.reportingId, reason: undefined, updatedAt: now });
    return;
  }
  if (body.status === 'rejected') {
    const { zoneId: _z, reportingId: _r, ...rest } = row;
    tx.put(SiteAds, { ...rest, status: 'rejected', ...(body.reason ? { reason: body.reason } : { reason: undefined }), updatedAt: now });
    return;
  }
  throw new DocsError('invalid', 'body.status: must be live, rejected or pending');
}
