import type { Schema } from '../contract/types.js';
import { documentToMarkdown } from '../documents/markdown.js';
import { apiUrl, type Caller, type Context } from '../kernel/context.js';
import { conflict, invalid, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { checkCondition } from './conditions.js';
import {
  CHANNEL_TYPES,
  type ChannelType,
  type SiteAgentSettingsRecord,
  type SiteChannelRecord,
  type SiteExternalLinkRecord,
  type SiteRecord,
} from './model.js';
import { endOf, hasSections } from './rows.js';
import { groupOf } from './sections.js';
import { SiteAgentSettings, SiteChannels, SiteExternalLinks } from './tables.js';

// What a site offers agents and its navigation's external links (docs/manual/site-agents.md):
// its GitBook Agent channels, its external links, its agent settings. The operations that need
// other areas (an integration's installation, a link's URL rule, insights) are in
// src/sites/agent-operations.ts.

// ---- Channels ----------------------------------------------------------------------------------

/** The setup's allow list of each channel type, and what its patterns look like. */
export const CHANNEL_SETUP: Record<ChannelType, { key: string; pattern: RegExp; what: string }> = {
  'builtin:slack': { key: 'allowedChannels', pattern: /^[a-zA-Z0-9_*-]+$/, what: 'Slack channel names or patterns (general, support-*)' },
  'builtin:discord': { key: 'allowedChannels', pattern: /^[a-zA-Z0-9_*-]+$/, what: 'Discord channel names or patterns' },
  'builtin:linear': { key: 'allowedTeams', pattern: /^[a-zA-Z0-9_*-]+$/, what: 'Linear team keys or patterns' },
  'builtin:github': { key: 'allowedRepositories', pattern: /^[a-zA-Z0-9._*-]+\/[a-zA-Z0-9._*-]+$/, what: 'GitHub repositories as owner/repository (my-org/*)' },
};
const MAX_PATTERNS = 100;
const MAX_PATTERN = 100;

function setupOf(type: unknown, settings: unknown): { type: ChannelType; setupSettings: Record<string, string[]> } {
  if (!(CHANNEL_TYPES as readonly unknown[]).includes(type)) throw invalid(`type: must be one of ${CHANNEL_TYPES.join(', ')}`);
  const t = type as ChannelType;
  const rule = CHANNEL_SETUP[t];
  const given = (settings ?? {}) as Record<string, unknown>;
  for (const k of Object.keys(given)) if (k !== rule.key) throw invalid(`setupSettings.${k}: a ${t} channel takes ${rule.key} only`);
  const raw = given[rule.key] ?? [];
  if (!Array.isArray(raw)) throw invalid(`setupSettings.${rule.key}: a list of ${rule.what}`);
  if (raw.length > MAX_PATTERNS) throw invalid(`setupSettings.${rule.key}: at most ${MAX_PATTERNS} patterns`);
  const list = [...new Set(raw.map(String))];
  const bad = list.find((p) => p.length > MAX_PATTERN || !rule.pattern.test(p));
  if (bad !== undefined) throw invalid(`setupSettings.${rule.key}: ${JSON.stringify(bad)} is not one of ${rule.what} (at most ${MAX_PATTERN} characters)`);
  return { type: t, setupSettings: given[rule.key] === undefined ? {} : { [rule.key]: list } };
}

const roleOf = (role: unknown) => {
  if (role !== 'support' && role !== 'collaborator') throw invalid('role: must be support or collaborator');
  return role;
};

/** One channel of each type per site: a second one for the same tool is a 409. */
function uniqueType(tx: ReadTx, site: SiteRecord, type: ChannelType, except?: string) {
  const other = tx.find(SiteChannels, 'site', site.id).find((c) => c.type === type && c.id !== except);
  if (other) throw conflict(`type: site ${site.id} already has a ${type} channel (${other.id}); change that one`);
}

export function createChannel(
  tx: WriteTx,
  ctx: Context,
  site: SiteRecord,
  body: { type?: unknown; setupSettings?: unknown; role?: unknown },
): SiteChannelRecord {
  const setup = setupOf(body.type, body.setupSettings);
  uniqueType(tx, site, setup.type);
  const now = ctx.clock.now().toISOString();
  return tx.put(SiteChannels, {
    id: newId(),
    organization: site.organization,
    site: site.id,
    ...setup,
    role: body.role === undefined ? 'support' : roleOf(body.role),
    createdAt: now,
    updatedAt: now,
  });
}

export function channelOf(tx: ReadTx, site: SiteRecord, id: string): SiteChannelRecord {
  const r = tx.get(SiteChannels, id);
  if (!r || r.site !== site.id) throw notFound(`channel ${id} not found in site ${site.id}`);
  return r;
}

/** PATCH: a new setup (type and settings together), a new role, or both. */
export function updateChannel(
  tx: WriteTx,
  ctx: Context,
  site: SiteRecord,
  id: string,
  body: { type?: unknown; setupSettings?: unknown; role?: unknown },
): SiteChannelRecord {
  const r = channelOf(tx, site, id);
  if (body.type === undefined && body.setupSettings === undefined && body.role === undefined) throw invalid('body: give type and setupSettings, role, or both');
  const next: SiteChannelRecord = { ...r, updatedAt: ctx.clock.now().toISOString() };
  if (body.type !== undefined || body.setupSettings !== undefined) {
    if (body.type === undefined || body.setupSettings === undefined) throw invalid('type, setupSettings: give both to change the setup');
    Object.assign(next, setupOf(body.type, body.setupSettings));
    uniqueType(tx, site, next.type, r.id);
  }
  if (body.role !== undefined) next.role = roleOf(body.role);
  return tx.put(SiteChannels, next);
}

export function deleteChannel(tx: WriteTx, site: SiteRecord, id: string): boolean {
  const r = tx.get(SiteChannels, id);
  if (!r || r.site !== site.id) return false;
  tx.delete(SiteChannels, r.id);
  return true;
}

/** Whether a place of the tool (a channel name, a team key, owner/repository) is one the channel may act in: no pattern, everywhere. */
export function channelAllows(r: SiteChannelRecord, place: string): boolean {
  const list = r.setupSettings[CHANNEL_SETUP[r.type].key] ?? [];
  if (!list.length) return true;
  return list.some((p) => new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i').test(place));
}

/** The contract's SiteChannel; `active` when the tool's integration is installed on the site (agent-operations.ts). */
export function presentChannel(ctx: Context, r: SiteChannelRecord, active: boolean): Schema<'SiteChannel'> {
  return {
    object: 'site-channel',
    id: r.id,
    type: r.type,
    setupSettings: r.setupSettings,
    role: r.role,
    status: active ? 'active' : 'pending',
    // Answers given through the channel: this server answers in no external tool itself.
    answers: 0,
    createdAt: r.createdAt,
    urls: { location: apiUrl(ctx, `/orgs/${r.organization}/sites/${r.site}/channels/${r.id}`) },
    // Asserted: the generated type of SiteChannel (an allOf over a oneOf) mixes in another
    // schema's fields (`channel`, `site`); the answer is checked against the spec's schema itself.
  } as Schema<'SiteChannel'>;
}

// ---- External links ----------------------------------------------------------------------------

export interface ExternalLinkInput {
  title?: string;
  localizedTitle?: Record<string, string> | null;
  description?: string | null;
  localizedDescription?: Record<string, string> | null;
  icon?: string | null;
  url?: string;
  parent?: string | null;
  draft?: boolean;
  condition?: string | null;
}

const LINK_TITLE = { min: 2, max: 128 };
function linkTitle(v: unknown): string {
  const t = String(v).trim();
  if (t.length < LINK_TITLE.min || t.length > LINK_TITLE.max) throw invalid(`title: must be ${LINK_TITLE.min} to ${LINK_TITLE.max} characters`);
  return t;
}

/** The group a link goes in: a section group of this site (400 otherwise), null for the root. */
function parentOf(tx: ReadTx, site: SiteRecord, parent: string | null | undefined): string | null {
  if (parent === undefined || parent === null) return null;
  try {
    return groupOf(tx, site, parent).id;
  } catch {
    throw invalid(`parent: no section group ${parent} in site ${site.id} (a link goes at the root or in a section group, not in a section)`);
  }
}

const linksIn = (tx: ReadTx, site: string, group: string | null) => tx.find(SiteExternalLinks, 'site', site).filter((l) => l.group === group);

/** The links of a container, in order (the published navigation shows them after its sections and groups). */
export const externalLinksIn = (tx: ReadTx, site: string, group: string | null) =>
  linksIn(tx, site, group).sort((a, b) => a.position - b.position || a.id.localeCompare(b.id));

function applyLinkFields(next: SiteExternalLinkRecord, body: ExternalLinkInput, url: (u: string) => string) {
  if (body.title !== undefined) next.title = linkTitle(body.title);
  if (body.url !== undefined) next.url = url(body.url);
  if (body.draft !== undefined) next.draft = body.draft;
  const opt = <K extends 'localizedTitle' | 'description' | 'localizedDescription' | 'icon' | 'condition'>(
    k: K,
    check: (v: any) => SiteExternalLinkRecord[K],
  ) => {
    if (body[k] === undefined) return;
    if (body[k] === null) delete next[k];
    else next[k] = check(body[k]);
  };
  opt('localizedTitle', (v) => v);
  opt('description', (v) => {
    if (String(v).length > 256) throw invalid('description: at most 256 characters');
    return String(v);
  });
  opt('localizedDescription', (v) => v);
  opt('icon', (v) => String(v));
  opt('condition', (v) => checkCondition(String(v)));
}

/**
 * POST external-links: a link at the end of the site's root or of a section group. Links need a
 * site of sections (a site of site spaces only has no navigation to put them in): a 400 there.
 * `url` is checked by the caller's rule (src/content/link-pages.ts, through agent-operations.ts).
 */
export function addExternalLink(tx: WriteTx, ctx: Context, site: SiteRecord, body: ExternalLinkInput, url: (u: string) => string): SiteExternalLinkRecord {
  if (!hasSections(tx, site.id))
    throw invalid(`site ${site.id} has a simple structure (site spaces only): add a section first, external links go in the sections' navigation`);
  const group = parentOf(tx, site, body.parent);
  const row: SiteExternalLinkRecord = {
    id: newId(),
    organization: site.organization,
    site: site.id,
    title: linkTitle(body.title),
    url: url(String(body.url)),
    group,
    draft: body.draft ?? false,
    position: endOf(linksIn(tx, site.id, group)),
    createdAt: ctx.clock.now().toISOString(),
  };
  applyLinkFields(row, { ...body, title: undefined, url: undefined, draft: undefined }, url);
  return tx.put(SiteExternalLinks, row);
}

export function externalLinkOf(tx: ReadTx, site: SiteRecord, id: string): SiteExternalLinkRecord {
  const r = tx.get(SiteExternalLinks, id);
  if (!r || r.site !== site.id) throw notFound(`external link ${id} not found in site ${site.id}`);
  return r;
}

/** PATCH: the fields given; `parent` moves it to the end of that group (null: the root). */
export function updateExternalLink(tx: WriteTx, site: SiteRecord, id: string, body: ExternalLinkInput, url: (u: string) => string): SiteExternalLinkRecord {
  const r = externalLinkOf(tx, site, id);
  const next: SiteExternalLinkRecord = { ...r };
  applyLinkFields(next, body, url);
  if (body.parent !== undefined) {
    const group = parentOf(tx, site, body.parent);
    if (group !== r.group) Object.assign(next, { group, position: endOf(linksIn(tx, site.id, group)) });
  }
  return tx.put(SiteExternalLinks, next);
}

export function deleteExternalLink(tx: WriteTx, site: SiteRecord, id: string): boolean {
  const r = tx.get(SiteExternalLinks, id);
  if (!r || r.site !== site.id) return false;
  tx.delete(SiteExternalLinks, r.id);
  return true;
}

export function presentExternalLink(r: SiteExternalLinkRecord): Schema<'SiteExternalLink'> {
  return {
    object: 'site-external-link',
    id: r.id,
    title: r.title,
    url: r.url,
    draft: r.draft,
    ...(r.group ? { sectionGroup: r.group } : {}),
    ...(r.localizedTitle ? { localizedTitle: r.localizedTitle } : {}),
    ...(r.description !== undefined ? { description: r.description } : {}),
    ...(r.localizedDescription ? { localizedDescription: r.localizedDescription } : {}),
    ...(r.icon ? { icon: r.icon } : {}),
    ...(r.condition !== undefined ? { condition: r.condition } : {}),
  };
}

// ---- Agent settings ----------------------------------------------------------------------------

/**
 * The site's agent settings; before any were written, the defaults: topics scanned (`auto`),
 * change requests only for findings that can be fixed alone (`auto-fixable`), no instructions,
 * dated from the site's creation.
 */
export function agentSettingsOf(tx: ReadTx, site: SiteRecord): SiteAgentSettingsRecord {
  return (
    tx.get(SiteAgentSettings, site.id) ?? {
      id: site.id,
      organization: site.organization,
      site: site.id,
      scans: { topics: 'auto' },
      findings: { changeRequests: 'auto-fixable' },
      editing: { customInstructions: { object: 'document', data: {}, nodes: [] } },
      updatedAt: site.createdAt,
      updatedBy: '',
    }
  );
}

/** The instructions as markdown, at most this long (they go into every MCP session's start). */
export const MAX_INSTRUCTIONS = 8000;

export function putAgentSettings(
  tx: WriteTx,
  ctx: Context,
  caller: Caller,
  site: SiteRecord,
  body: Pick<SiteAgentSettingsRecord, 'scans' | 'findings' | 'editing'>,
): SiteAgentSettingsRecord {
  const text = documentToMarkdown(body.editing.customInstructions as { nodes?: any[] });
  if (text.length > MAX_INSTRUCTIONS) throw invalid(`editing.customInstructions: at most ${MAX_INSTRUCTIONS} characters as text (got ${text.length})`);
  return tx.put(SiteAgentSettings, {
    id: site.id,
    organization: site.organization,
    site: site.id,
    scans: { topics: body.scans.topics },
    findings: { changeRequests: body.findings.changeRequests },
    editing: { customInstructions: body.editing.customInstructions },
    updatedAt: ctx.clock.now().toISOString(),
    updatedBy: caller.userId,
  });
}

/** The site's instructions for agents, as markdown ('' when none): the site's MCP server gives them (src/mcp/site.ts). */
export function agentInstructionsText(tx: ReadTx, siteId: string): string {
  const r = tx.get(SiteAgentSettings, siteId);
  return r ? documentToMarkdown(r.editing.customInstructions as { nodes?: any[] }).trim() : '';
}

export function presentAgentSettings(ctx: Context, r: SiteAgentSettingsRecord): Schema<'SiteAgentSettings'> {
  return {
    object: 'site-agent-settings',
    scans: r.scans,
    findings: r.findings,
    editing: r.editing,
    updatedAt: r.updatedAt,
    ...(r.updatedBy ? { updatedBy: r.updatedBy } : {}),
    urls: { location: apiUrl(ctx, `/orgs/${r.organization}/sites/${r.site}/agent-settings`) },
    // Asserted: the document is stored as it was validated against JSONDocument on the way in.
  } as Schema<'SiteAgentSettings'>;
}
