import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { Schema } from '../contract/types.js';
import { apiUrl, type Caller, type Context } from '../kernel/context.js';
import { conflict, invalid, notFound } from '../kernel/errors.js';
import { membershipOf, requireOrgRole } from '../organizations/service.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { requireSiteLevel, SITE_ADMIN } from './access.js';
import type { CustomHostnameRecord, HostnameStatus } from './model.js';
import { CustomHostnames, Sites } from './tables.js';

// Custom hostnames (docs/manual/site-delivery.md#custom-hostnames): a name a site answers on,
// once it resolves to this server. The check asks the machine's resolver only (dns.lookup, as
// every program on the machine would), never a public DNS service; names under `.localhost`
// resolve to the loopback without asking (RFC 6761 §6.3), so a name can be tried on one machine.

/** The longest name DNS carries (RFC 1035: 253 characters written out). */
export const HOSTNAME_MAX = 253;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A hostname as stored: lower case, no trailing dot; 400 for an IP literal, a bad label, too long or too few labels. */
export function checkHostname(raw: string, field = 'hostname'): string {
  const name = String(raw).trim().toLowerCase().replace(/\.$/, '');
  if (name.length > HOSTNAME_MAX) throw invalid(`${field}: at most ${HOSTNAME_MAX} characters`);
  if (isIP(name.replace(/^\[|\]$/g, '')) !== 0) throw invalid(`${field}: must be a name, not an IP address (${JSON.stringify(raw)})`);
  const labels = name.split('.');
  if (labels.length < 3) throw invalid(`${field}: must have at least three labels, like docs.example.com (got ${JSON.stringify(raw)})`);
  const bad = labels.find((l) => !LABEL.test(l));
  if (bad !== undefined)
    throw invalid(
      `${field}: label ${JSON.stringify(bad)} must be 1 to 63 letters, digits or '-', not starting or ending with '-' (got ${JSON.stringify(raw)})`,
    );
  if (/^\d+$/.test(labels.at(-1)!)) throw invalid(`${field}: the last label cannot be all digits (got ${JSON.stringify(raw)})`);
  return name;
}

/** The addresses this machine answers on: its interfaces' and the loopback. */
export function localAddresses(): Set<string> {
  const out = new Set(['127.0.0.1', '::1']);
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) out.add(a.address);
  return out;
}

/** What a name resolves to with the machine's resolver; `.localhost` names are the loopback (RFC 6761). */
export async function resolveName(name: string): Promise<string[]> {
  if (name === 'localhost' || name.endsWith('.localhost')) return ['127.0.0.1', '::1'];
  try {
    return [...new Set((await lookup(name, { all: true, verbatim: true })).map((a) => a.address))];
  } catch {
    return [];
  }
}

/** The status a lookup gives: live when an address is this machine's, else why not. */
export function statusOf(addresses: string[], local: Set<string>): HostnameStatus {
  if (!addresses.length) return 'dns_no_cname';
  return addresses.some((a) => local.has(a) || a.startsWith('127.') || a === '::1') ? 'live' : 'dns_wrong_cname';
}

export async function dnsCheck(name: string): Promise<{ status: HostnameStatus; addresses: string[] }> {
  const addresses = await resolveName(name);
  return { status: statusOf(addresses, localAddresses()), addresses };
}

/** The row of a hostname the caller's organization holds (404 for everyone else), with `need` on its site. */
export function hostnameOf(tx: ReadTx, caller: Caller, hostname: string, need: 'read' | 'admin', action: string): CustomHostnameRecord {
  const row = tx.get(CustomHostnames, hostname.toLowerCase());
  const gone = () => notFound(`custom hostname ${hostname} not found`);
  if (!row) throw gone();
  let m: ReturnType<typeof membershipOf>;
  try {
    m = membershipOf(tx, row.organization, caller);
  } catch {
    throw gone();
  }
  const site = tx.get(Sites, row.site);
  if (!site) throw gone();
  if (need === 'read') requireOrgRole(m.member, 'read', action);
  else requireSiteLevel(tx, m.member, site, SITE_ADMIN, action);
  return row;
}

/** Adds a hostname to a site (admin on the site), with the DNS check's outcome; 409 when another site has it. */
export function addHostname(
  tx: WriteTx,
  ctx: Context,
  caller: Caller,
  organizationId: string,
  siteId: string,
  name: string,
  check: { status: HostnameStatus; addresses: string[] },
): CustomHostnameRecord {
  const { member } = membershipOf(tx, organizationId, caller);
  const site = tx.get(Sites, siteId);
  if (!site || site.organization !== organizationId) throw notFound(`site ${siteId} not found`);
  requireSiteLevel(tx, member, site, SITE_ADMIN, `adding a hostname to site ${siteId}`);
  const taken = tx.get(CustomHostnames, name);
  if (taken && taken.site !== site.id) throw conflict(`hostname: ${name} is already the hostname of another site`);
  for (const old of tx.find(CustomHostnames, 'site', site.id)) if (old.id !== name) tx.delete(CustomHostnames, old.id); // one per site
  const now = ctx.clock.now().toISOString();
  return tx.put(CustomHostnames, { id: name, organization: site.organization, site: site.id, ...check, checkedAt: now, createdAt: taken?.createdAt ?? now });
}

export function presentHostname(ctx: Context, h: CustomHostnameRecord): Schema<'CustomHostname'> {
  return {
    object: 'custom-hostname',
    hostname: h.id,
    target: { type: 'site', site: h.site },
    isActive: h.status === 'live',
    status: h.status,
    urls: { location: apiUrl(ctx, `/custom-hostnames/${h.id}`) },
  };
}

/**
 * `/_docs/custom-hostnames` (`docs sites hostname add|list`): the contract reads, revalidates and
 * removes a custom hostname but has no operation that gives a site one. POST {organization, site,
 * hostname} adds it (the DNS check runs first: it answers whatever the outcome, `isActive`
 * saying whether the site answers on it); GET ?organization= lists the organization's.
 */
export async function hostnameRoute(ctx: Context, caller: Caller, method: string, query: Record<string, unknown>, body: any) {
  if (method === 'GET') {
    const organization = String(query.organization ?? '');
    const items = await ctx.store.read((tx) => {
      const { member } = membershipOf(tx, organization, caller);
      requireOrgRole(member, 'read', 'listing custom hostnames');
      return tx.find(CustomHostnames, 'organization', organization).sort((a, b) => a.id.localeCompare(b.id));
    });
    return { status: 200, body: { items: items.map((h) => presentHostname(ctx, h)) } };
  }
  if (method !== 'POST') throw Object.assign(invalid(`${method} is not allowed on /_docs/custom-hostnames (allowed: GET, POST)`), { allow: ['GET', 'POST'] });
  for (const f of ['organization', 'site', 'hostname']) if (typeof body?.[f] !== 'string') throw invalid(`${f}: required (a string)`);
  const name = checkHostname(body.hostname);
  // Rights first (a refusal makes no DNS query), then the check outside the write.
  await ctx.store.read((tx) => {
    const { member } = membershipOf(tx, body.organization, caller);
    const site = tx.get(Sites, body.site);
    if (!site || site.organization !== body.organization) throw notFound(`site ${body.site} not found`);
    requireSiteLevel(tx, member, site, SITE_ADMIN, `adding a hostname to site ${body.site}`);
  });
  const check = await dnsCheck(name);
  const row = await ctx.store.write((tx) => addHostname(tx, ctx, caller, body.organization, body.site, name, check));
  return { status: 201, body: presentHostname(ctx, row) };
}
