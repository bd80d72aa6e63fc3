import type { Context } from '../kernel/context.js';
import { invalid, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import type { ShareLinkRecord, SiteRecord } from './model.js';
import { SiteShareLinks } from './tables.js';

// Share links open a `share-link` site to whoever has the link's key. The key is a random
// 40-character secret, separate from the link's id, so listing links by id does not hand out keys
// to anyone who can only see ids in logs.

export const shareLinksOf = (tx: ReadTx, site: string) =>
  tx.find(SiteShareLinks, 'site', site).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));

export function shareLinkOf(tx: ReadTx, site: SiteRecord, id: string): ShareLinkRecord {
  const l = tx.get(SiteShareLinks, id);
  if (!l || l.site !== site.id) throw notFound(`share link ${id} not found in site ${site.id}`);
  return l;
}

/** True when `key` is the key of an active share link of the site. */
export function validShareKey(tx: ReadTx, site: SiteRecord, key: string): boolean {
  return tx.find(SiteShareLinks, 'key', key).some((l) => l.site === site.id && l.active);
}

/** A `shareKey` query value: 404 unless it opens this site (an unknown key reveals nothing). */
export function requireShareKey(tx: ReadTx, site: SiteRecord, key: string | undefined): string | undefined {
  if (key !== undefined && !validShareKey(tx, site, key)) throw notFound(`shareKey: no active share link of site ${site.id} has this key`);
  return key;
}

const cleanName = (name: string) => {
  const n = name.trim();
  if (!n) throw invalid('name: must be 1 to 50 characters');
  return n;
};

export function createShareLink(tx: WriteTx, ctx: Context, site: SiteRecord, name: string): ShareLinkRecord {
  return tx.put(SiteShareLinks, {
    id: newId(),
    organization: site.organization,
    site: site.id,
    name: cleanName(name),
    active: true,
    key: newId(40),
    createdAt: ctx.clock.now().toISOString(),
  });
}

export function updateShareLink(tx: WriteTx, site: SiteRecord, id: string, body: { name?: string; active?: boolean }): ShareLinkRecord {
  const l = shareLinkOf(tx, site, id);
  const next = { ...l };
  if (body.name !== undefined) next.name = cleanName(body.name);
  if (body.active !== undefined) next.active = body.active;
  return tx.put(SiteShareLinks, next);
}

export function deleteShareLink(tx: WriteTx, site: SiteRecord, id: string): boolean {
  const l = tx.get(SiteShareLinks, id);
  if (!l || l.site !== site.id) return false;
  return tx.delete(SiteShareLinks, id);
}
