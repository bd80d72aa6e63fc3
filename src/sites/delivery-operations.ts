import { apiUrl, type Caller, type Context } from '../kernel/context.js';
import { defineOperation } from '../kernel/operation.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { SITE_ADMIN, siteOf, type SiteSeen } from './access.js';
import * as auth from './publishing-auth.js';
import * as hosts from './hostnames.js';
import { CustomHostnames, SiteMcpServers } from './tables.js';
import * as mcp from './mcp-servers.js';
import { paginate } from '../kernel/pagination.js';
import { conflict } from '../kernel/errors.js';

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

// Custom hostnames (docs/manual/site-delivery.md#custom-hostnames): the rules in hostnames.ts.

export const getCustomHostname = defineOperation('getCustomHostname', ({ ctx, caller, path }) =>
  ctx.store.read((tx) => ({ status: 200, body: hosts.presentHostname(ctx, hosts.hostnameOf(tx, caller, path.hostname, 'read', 'reading a custom hostname')) })),
);

/** 205 removed (the site no longer answers on it), 204 when there was none the caller can see. */
export const removeCustomHostname = defineOperation('removeCustomHostname', async ({ ctx, caller, path }) => {
  const removed = await ctx.store.write((tx) => {
    let row: ReturnType<typeof hosts.hostnameOf>;
    try {
      row = hosts.hostnameOf(tx, caller, path.hostname, 'admin', 'removing a custom hostname');
    } catch (err) {
      if ((err as any)?.kind === 'not_found') return false;
      throw err;
    }
    tx.delete(CustomHostnames, row.id);
    return true;
  });
  return { status: removed ? 205 : 204 };
});

/**
 * Asks the machine's resolver again: 204 when the name resolves to this server (the site answers
 * on it), 409 naming what it resolves to otherwise (the status is kept either way). A name no
 * site has (whatever its shape: one that cannot be a hostname was never added) is a 404, as for
 * anyone who may not see it.
 */
export const dnsRevalidateCustomHostname = defineOperation('dnsRevalidateCustomHostname', async ({ ctx, caller, path }) => {
  const name = (await ctx.store.read((tx) => hosts.hostnameOf(tx, caller, path.hostname, 'admin', 'revalidating a custom hostname'))).id;
  const check = await hosts.dnsCheck(name);
  await ctx.store.write((tx) => {
    const row = hosts.hostnameOf(tx, caller, name, 'admin', 'revalidating a custom hostname');
    tx.put(CustomHostnames, { ...row, ...check, checkedAt: ctx.clock.now().toISOString() });
  });
  if (check.status !== 'live')
    throw conflict(
      check.addresses.length
        ? `${name} resolves to ${check.addresses.join(', ')}, not to this server: point it here (an A/AAAA record or a CNAME to this server's name)`
        : `${name} does not resolve (the machine's resolver knows no address for it)`,
    );
  return { status: 204 };
});

// Site MCP servers (docs/manual/site-delivery.md#site-mcp-servers): the rules in mcp-servers.ts.

export const listSiteMcpServers = defineOperation('listSiteMcpServers', ({ ctx, caller, path, query }) =>
  read(ctx, caller, path, 'read', 'listing the MCP servers of a site', (tx, { site }) => {
    const all = tx.find(SiteMcpServers, 'site', site.id).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    return { status: 200, body: paginate(all, query, (r) => mcp.presentMcpServer(ctx, r)) };
  }),
);

export const createSiteMcpServer = defineOperation('createSiteMcpServer', async ({ ctx, caller, path, body }) => {
  const r = await write(ctx, caller, path, 'adding an MCP server to a site', (tx, { site }) => mcp.createMcpServer(tx, ctx, site, body));
  return {
    status: 201,
    headers: { Location: apiUrl(ctx, `/orgs/${path.organizationId}/sites/${path.siteId}/mcp-servers/${r.id}`) },
    body: mcp.presentMcpServer(ctx, r),
  };
});

export const getSiteMcpServerById = defineOperation('getSiteMcpServerById', ({ ctx, caller, path }) =>
  read(ctx, caller, path, 'read', 'reading an MCP server of a site', (tx, { site }) => ({
    status: 200,
    body: mcp.presentMcpServer(ctx, mcp.mcpServerOf(tx, site, path.siteMcpServerId!)),
  })),
);

export const updateSiteMcpServerById = defineOperation('updateSiteMcpServerById', async ({ ctx, caller, path, body }) => ({
  status: 200,
  body: mcp.presentMcpServer(
    ctx,
    await write(ctx, caller, path, 'changing an MCP server of a site', (tx, { site }) => mcp.updateMcpServer(tx, ctx, site, path.siteMcpServerId!, body)),
  ),
}));

export const deleteSiteMcpServerById = defineOperation('deleteSiteMcpServerById', async ({ ctx, caller, path }) => {
  const deleted = await write(ctx, caller, path, 'removing an MCP server of a site', (tx, { site }) => {
    const r = tx.get(SiteMcpServers, path.siteMcpServerId!);
    if (!r || r.site !== site.id) return false;
    tx.delete(SiteMcpServers, r.id);
    return true;
  });
  return { status: deleted ? 205 : 204 };
});
