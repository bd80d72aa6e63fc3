import type { Caller, Context } from '../kernel/context.js';
import { defineOperation } from '../kernel/operation.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { SITE_ADMIN, siteOf, type SiteSeen } from './access.js';
import * as auth from './publishing-auth.js';

// How a site is delivered (docs/manual/site-delivery.md): its publishing auth, and the operations
// of the same page that need no other area.

type P = Record<string, string>;

const write = <R>(ctx: Context, caller: Caller, path: P, action: string, fn: (tx: WriteTx, seen: SiteSeen) => R) =>
  ctx.store.write((tx) => fn(tx, siteOf(tx, caller, path.organizationId!, path.siteId!, SITE_ADMIN, action)));
export const read = <R>(ctx: Context, caller: Caller, path: P, need: 'read' | 'admin', action: string, fn: (tx: ReadTx, seen: SiteSeen) => R) =>
  ctx.store.read((tx) => fn(tx, siteOf(tx, caller, path.organizationId!, path.siteId!, need, action)));

// The private key is a secret: reading it needs what changing it needs (admin on the site). The
// first read makes it, so it is a write.
export const getSitePublishingAuthById = defineOperation('getSitePublishingAuthById', async ({ ctx, caller, path }) => ({
  status: 200,
  body: auth.presentVisitorAuth(
    await write(ctx, caller, path, 'reading the publishing auth of a site', (tx, { site }) => auth.ensureVisitorAuth(tx, ctx, site)),
  ),
}));

export const updateSitePublishingAuthById = defineOperation('updateSitePublishingAuthById', async ({ ctx, caller, path, body }) => ({
  status: 200,
  body: auth.presentVisitorAuth(
    await write(ctx, caller, path, 'changing the publishing auth of a site', (tx, { site }) => auth.updateVisitorAuth(tx, ctx, site, body as any)),
  ),
}));

export const regenerateSitePublishingAuthById = defineOperation('regenerateSitePublishingAuthById', async ({ ctx, caller, path }) => ({
  status: 200,
  body: auth.presentVisitorAuth(
    await write(ctx, caller, path, 'regenerating the visitor key of a site', (tx, { site }) => auth.regenerateVisitorAuth(tx, ctx, site)),
  ),
}));
