import type { Caller, Context } from '../kernel/context.js';
import { conflict, forbidden, invalid, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { atLeast } from '../kernel/roles.js';
import { findMember, membershipOf, requireOrgRole } from '../organizations/service.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { RETIRED_CATEGORIES, type DevMode, type IntegrationRecord } from './model.js';
import { refusedLiteral, type Ipaddr } from '../kernel/outbound-guard.js';
import { IntegrationEvents, IntegrationInstallations, Integrations } from './tables.js';
import { MetaOwner } from '../users/instance.js';
import { Organizations } from '../organizations/tables.js';

// The rules of integrations (docs/manual/integrations.md). Integrations are global and found by name;
// their owning organization decides about them: its admins publish, update, unpublish them, set
// development mode and read their events. Who sees one: `public` and `unlisted` integrations are
// readable by anyone authenticated (`unlisted` ones are left out of lists except for members of
// the owner); `private` ones only by members of the owner (404 for everyone else).

export const ADMIN = 'admin';

export function findIntegration(tx: ReadTx, name: string): IntegrationRecord | undefined {
  return tx.find(Integrations, 'name', name)[0];
}

export const isOwnerMember = (tx: ReadTx, i: IntegrationRecord, caller: Caller) => !!findMember(tx, i.organization, caller.userId);
export const isOwnerAdmin = (tx: ReadTx, i: IntegrationRecord, caller: Caller) => atLeast(findMember(tx, i.organization, caller.userId)?.role ?? null, 'admin');

export function canSee(tx: ReadTx, i: IntegrationRecord, caller: Caller): boolean {
  return i.visibility !== 'private' || isOwnerMember(tx, i, caller);
}

/** The integration the caller may see, or a 404 that says nothing about private ones. */
export function visibleIntegration(tx: ReadTx, name: string, caller: Caller): IntegrationRecord {
  const i = findIntegration(tx, name);
  if (!i || !canSee(tx, i, caller)) throw notFound(`integration ${name} not found`);
  return i;
}

/** An integration the caller administers: 404 when they may not see it, 403 when not an owner admin. */
export function administeredIntegration(tx: ReadTx, name: string, caller: Caller, action: string): IntegrationRecord {
  const i = visibleIntegration(tx, name, caller);
  const member = findMember(tx, i.organization, caller.userId);
  if (!member) throw forbidden(`${action} needs the admin role in organization ${i.organization}, which owns integration ${name} (you are not a member)`);
  requireOrgRole(member, ADMIN, action);
  return i;
}

/** `organization` of a publish body: an organization id, or its subdomain (hostname). */
export function resolveOrganization(tx: ReadTx, ref: string, caller: Caller) {
  const org = tx.get(Organizations, ref) ?? tx.find(Organizations, 'hostname', ref.toLowerCase())[0];
  // Organizations the caller is not a member of are as unknown as ones that do not exist.
  if (!org || !findMember(tx, org.id, caller.userId)) throw notFound(`organization: no organization matches ${ref} (give an organization id or its subdomain)`);
  return membershipOf(tx, org.id, caller);
}

export interface ListFilters {
  search?: string;
  category?: string;
  blockDomain?: string;
  blocks?: boolean;
  contentSources?: boolean;
  owner?: string;
  scope?: string;
  target?: string;
}

/** The host of an unfurl pattern such as `https://*.figma.com/file/*`, lowercased. */
function patternHost(pattern: string): string {
  return (/^[a-z]+:\/\/([^/?#]+)/i.exec(pattern)?.[1] ?? pattern.split('/')[0] ?? '').toLowerCase();
}

/** Whether a block unfurls links of `domain` (the pattern's host is the domain or a subdomain of it). */
function unfurlsDomain(i: IntegrationRecord, domain: string): boolean {
  const d = domain.toLowerCase();
  return i.blocks.some((b) =>
    (b.urlUnfurl ?? []).some((u: string) => {
      const host = patternHost(u).replace(/^\*\./, '');
      return host === d || host.endsWith('.' + d) || d.endsWith('.' + host);
    }),
  );
}

/**
 * The integrations the caller may list, filtered, ordered by name. `unlisted` ones appear only to
 * members of their owner (everyone may still get them by name).
 */
export function listIntegrations(tx: ReadTx, caller: Caller, f: ListFilters): IntegrationRecord[] {
  const search = f.search?.trim().toLowerCase();
  return (
    tx
      .all(Integrations)
      .filter((i) => (i.visibility === 'public' ? true : isOwnerMember(tx, i, caller)))
      .filter((i) => !search || i.name.toLowerCase().includes(search) || i.title.toLowerCase().includes(search))
      .filter((i) => !f.category || i.categories.includes(f.category))
      .filter((i) => !f.blockDomain || unfurlsDomain(i, f.blockDomain))
      .filter((i) => f.blocks === undefined || i.blocks.length > 0 === f.blocks)
      .filter((i) => f.contentSources === undefined || i.contentSources.length > 0 === f.contentSources)
      .filter((i) => !f.owner || i.organization === f.owner)
      .filter((i) => !f.scope || i.scopes.includes(f.scope))
      // An integration whose target is `all` can be installed on any target, so it matches each.
      .filter((i) => !f.target || i.target === f.target || i.target === 'all')
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  );
}

export const NAME = /^[a-zA-Z0-9-_.]+$/;

/** What the schema cannot say about a publish body. */
export function checkPublish(name: string, body: any): void {
  if (!NAME.test(name) || name.length > 100) throw invalid('integrationName: must be 1 to 100 letters, digits, "-", "_" or "."');
  if (!body.title.trim() || body.title.trim().length < 2) throw invalid('title: must be 2 to 30 characters');
  if (body.script.length === 0) throw invalid('script: must not be empty');
  for (const [k, v] of Object.entries<string>(body.secrets ?? {})) {
    if (!k) throw invalid('secrets: names must not be empty');
    if (typeof v !== 'string') throw invalid(`secrets.${k}: must be a string`);
  }
  const ids = (list: any[] | undefined, field: string) => {
    const seen = new Set<string>();
    for (const x of list ?? []) {
      if (seen.has(x.id)) throw invalid(`${field}: id ${x.id} appears twice`);
      seen.add(x.id);
    }
  };
  ids(body.blocks, 'blocks');
  ids(body.contentSources, 'contentSources');
  for (const [field, b64] of [['icon', body.icon], ...(body.previewImages ?? []).map((p: string, n: number) => [`previewImages[${n}]`, p])] as [
    string,
    string | undefined,
  ][]) {
    if (b64 !== undefined && (b64.length === 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 !== 0)) throw invalid(`${field}: must be base64`);
  }
}

/**
 * Creates the integration, or publishes a new version of it (version + 1). Only admins of the
 * owning organization publish; a name owned by another organization is a 409, and an
 * integration cannot change owner by publishing.
 */
export function publish(tx: WriteTx, ctx: Context, caller: Caller, name: string, body: any): IntegrationRecord {
  const { org, member } = resolveOrganization(tx, body.organization, caller);
  const existing = findIntegration(tx, name);
  if (existing && existing.organization !== org.id) {
    if (isOwnerMember(tx, existing, caller) || existing.visibility !== 'private') {
      throw conflict(`organization: integration ${name} is owned by organization ${existing.organization}; an integration cannot change owner`);
    }
    throw conflict(`integrationName: the name ${name} is taken`);
  }
  requireOrgRole(member, ADMIN, 'publishing an integration');
  // 0.146.0 lists `gitsync` among the categories, 0.202.0 no longer does: the newest wins
  // (docs/manual/contract.md#the-newest-spec-is-part-of-the-contract), so no answer carries a category today's clients cannot read.
  for (const c of body.categories ?? [])
    if (RETIRED_CATEGORIES.includes(c))
      throw invalid(
        `body.categories: "${c}" is no longer a category (@gitbook/api 0.202.0): use one of analytics, collaboration, content, marketing, visitor-auth, other`,
      );
  const now = ctx.clock.now().toISOString();
  return tx.put(Integrations, {
    id: existing?.id ?? newId(),
    name,
    organization: org.id,
    version: (existing?.version ?? 0) + 1,
    runtime: body.runtime ?? 'v1',
    title: body.title.trim(),
    description: body.description,
    ...(body.summary !== undefined ? { summary: body.summary } : {}),
    ...(body.icon !== undefined ? { icon: body.icon } : {}),
    previewImages: body.previewImages ?? [],
    visibility: body.visibility ?? existing?.visibility ?? 'private',
    target: body.target ?? 'all',
    scopes: [...new Set<string>(body.scopes)],
    categories: [...new Set<string>(body.categories ?? [])],
    blocks: body.blocks ?? [],
    contentSources: body.contentSources ?? [],
    externalLinks: body.externalLinks ?? [],
    ...(body.configurations !== undefined ? { configurations: body.configurations } : {}),
    script: body.script,
    secrets: body.secrets ?? {},
    ...(body.contentSecurityPolicy !== undefined ? { contentSecurityPolicy: body.contentSecurityPolicy } : {}),
    // Development mode survives a new version: the developer is still iterating.
    ...(existing?.dev ? { dev: existing.dev } : {}),
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
    publishedBy: caller.userId,
  });
}

/** Removes the integration with its installations and events; false when there was nothing (or nothing the caller may see). */
export function unpublish(tx: WriteTx, caller: Caller, name: string): boolean {
  const i = findIntegration(tx, name);
  if (!i || !canSee(tx, i, caller)) return false;
  administeredIntegration(tx, name, caller, 'deleting an integration');
  for (const inst of tx.find(IntegrationInstallations, 'integration', i.id)) tx.delete(IntegrationInstallations, inst.id);
  for (const e of tx.find(IntegrationEvents, 'integration', i.id)) tx.delete(IntegrationEvents, e.id);
  tx.delete(Integrations, i.id);
  return true;
}

/**
 * Whether this caller's tunnel may reach loopback and private addresses: only the instance owner
 * on their own machine (the in-process CLI, or its calls forwarded to the server holding the data
 * directory), or anyone on a server started with `--allow-private-tunnels`. Anyone else could
 * otherwise make an organization, point a tunnel at 127.0.0.1:PORT and read from the event trace
 * which ports of the host are open (issue 26): their tunnel gets the guard of OpenAPI fetches.
 */
export function tunnelMayBePrivate(tx: ReadTx, ctx: Context, caller: Caller): boolean {
  return !!ctx.allowPrivateTunnels || (!!caller.inProcess && tx.get(MetaOwner, 'owner')?.user === caller.userId);
}

export const PRIVATE_TUNNEL_HINT =
  'the development tunnel reaches loopback and private addresses only when the instance owner sets it through the in-process CLI, or on a server started with docs serve --allow-private-tunnels';

/**
 * Tunnel URLs: http(s) without credentials; an IP literal that is not a public address is refused
 * here unless `mayBePrivate` (host names are judged by what they resolve to, at each delivery).
 */
export function checkTunnel(url: string, ip?: Ipaddr, mayBePrivate = true): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw invalid('tunnelUrl: must be an absolute http or https URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw invalid('tunnelUrl: must be an http or https URL');
  if (u.username || u.password) throw invalid('tunnelUrl: must not carry credentials');
  const why = !mayBePrivate && ip ? refusedLiteral(ip, u) : undefined;
  if (why) throw invalid(`tunnelUrl: ${why}: ${PRIVATE_TUNNEL_HINT}`);
  return url;
}

export function setDevMode(tx: WriteTx, ctx: Context, caller: Caller, name: string, dev: DevMode | undefined, ip?: Ipaddr): IntegrationRecord {
  const i = administeredIntegration(tx, name, caller, dev ? 'turning on development mode' : 'turning off development mode');
  const { dev: _old, ...rest } = i;
  if (!dev) return tx.put(Integrations, { ...rest, updatedAt: ctx.clock.now().toISOString() });
  // What the server's flag allows is decided at each delivery (by the server delivering); what
  // the owner allowed is kept with the URL, and lost when anyone else sets the URL again.
  const owners = !ctx.allowPrivateTunnels && tunnelMayBePrivate(tx, ctx, caller);
  checkTunnel(dev.tunnelUrl, ip, tunnelMayBePrivate(tx, ctx, caller));
  const { privateAllowed: _p, ...given } = dev;
  return tx.put(Integrations, { ...rest, dev: { ...given, ...(owners ? { privateAllowed: true as const } : {}) }, updatedAt: ctx.clock.now().toISOString() });
}
