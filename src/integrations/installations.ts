import type { SiteRecord } from '../sites/model.js';
import { type SpaceEntry, orgSpaces, spaceRow } from '../tree/order.js';
import type { Caller, Context } from '../kernel/context.js';
import { conflict, forbidden, invalid, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { atLeast } from '../kernel/roles.js';
import { findMember, requireOrgRole } from '../organizations/service.js';
import type { SpaceRecord } from '../spaces/model.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { recordEvent } from './events.js';
import { revokeInstallationTokens } from '../auth/scope.js';
import type { ContentInstall, InstallationRecord, InstallationStatus, IntegrationRecord, Selection } from './model.js';
import { ADMIN, canSee, findIntegration, isOwnerAdmin, resolveOrganization, visibleIntegration } from './service.js';
import { IntegrationInstallations } from './tables.js';
import { Sites } from '../sites/tables.js';
import { Spaces } from '../spaces/tables.js';

// Installations of an integration on an organization (docs/manual/integrations.md). Installing,
// changing and uninstalling is the business of that organization's admins (the organization's
// `installIntegration` permission). An installation is visible to them and to the admins of the
// integration's owner (its developers, who in GitBook read them with the integration's token).

export const canSeeInstallation = (tx: ReadTx, i: IntegrationRecord, inst: InstallationRecord, caller: Caller) =>
  atLeast(findMember(tx, inst.organization, caller.userId)?.role ?? null, 'admin') || isOwnerAdmin(tx, i, caller);

export function installationsOf(tx: ReadTx, i: IntegrationRecord, caller: Caller, externalId?: string): InstallationRecord[] {
  return tx
    .find(IntegrationInstallations, 'integration', i.id)
    .filter((inst) => canSeeInstallation(tx, i, inst, caller))
    .filter((inst) => externalId === undefined || inst.externalIds.includes(externalId))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

/**
 * One installation: members of its organization who are not admins get a 403 naming the role (the
 * organization's `listInstallations` permission); anyone else who may not see it, a 404.
 */
export function visibleInstallation(tx: ReadTx, name: string, id: string, caller: Caller, action = 'reading an installation') {
  const integration = visibleIntegration(tx, name, caller);
  const inst = tx.get(IntegrationInstallations, id);
  if (!inst || inst.integration !== integration.id) throw notFound(`installation ${id} of integration ${name} not found`);
  if (!canSeeInstallation(tx, integration, inst, caller)) {
    const member = findMember(tx, inst.organization, caller.userId);
    if (!member) throw notFound(`installation ${id} of integration ${name} not found`);
    requireOrgRole(member, ADMIN, action);
  }
  return { integration, inst };
}

/**
 * `pending` while the configuration lacks a field the integration's account configuration
 * requires, else `active` (`paused` is never set here: nothing in the API pauses one).
 */
export function statusFor(i: IntegrationRecord, configuration: Record<string, unknown>): InstallationStatus {
  const required: string[] = i.configurations?.account?.required ?? [];
  return required.every((k) => configuration[k] !== undefined && configuration[k] !== null && configuration[k] !== '') ? 'active' : 'pending';
}

const TYPES: Record<string, (v: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number',
  boolean: (v) => typeof v === 'boolean',
};

/** A configuration must fit the properties the integration declares (types and `enum`s it can check). */
export function checkConfiguration(i: IntegrationRecord, configuration: Record<string, unknown>): void {
  const props: Record<string, any> = i.configurations?.account?.properties ?? {};
  for (const [k, v] of Object.entries(configuration)) {
    const p = props[k];
    if (!p) continue; // the contract's configuration is a free object: undeclared fields are kept
    if (TYPES[p.type] && !TYPES[p.type]!(v)) throw invalid(`configuration.${k}: must be a ${p.type}`);
    if (Array.isArray(p.enum) && !p.enum.includes(v)) throw invalid(`configuration.${k}: must be one of ${p.enum.join(', ')}`);
  }
}

export function install(
  tx: WriteTx,
  ctx: Context,
  caller: Caller,
  name: string,
  organization: string,
): { integration: IntegrationRecord; inst: InstallationRecord } {
  const integration = visibleIntegration(tx, name, caller);
  const { org, member } = resolveOrganization(tx, organization, caller);
  requireOrgRole(member, ADMIN, 'installing an integration');
  if (integration.visibility === 'private' && org.id !== integration.organization) {
    throw forbidden(`integration ${name} is private: it can be installed only in its owning organization ${integration.organization}`);
  }
  const already = tx.find(IntegrationInstallations, 'integration', integration.id).find((x) => x.organization === org.id);
  if (already) throw conflict(`organization: integration ${name} is already installed in organization ${org.id} (installation ${already.id})`);
  const now = ctx.clock.now().toISOString();
  const inst = tx.put(IntegrationInstallations, {
    id: newId(),
    integration: integration.id,
    organization: org.id,
    status: statusFor(integration, {}),
    space_selection: 'all',
    site_selection: 'all',
    configuration: {},
    externalIds: [],
    createdAt: now,
    updatedAt: now,
    installedBy: caller.userId,
  });
  recordEvent(tx, ctx, integration, inst, { type: 'installation_setup', installationId: inst.id, status: inst.status });
  return { integration, inst };
}

export interface InstallationPatch {
  externalIds?: string[];
  configuration?: Record<string, unknown>;
  space_selection?: Selection;
  site_selection?: Selection;
}

/**
 * PATCH: only the installation's organization admins. The status follows the configuration;
 * a change of configuration or status emits `installation_setup` with `previous`.
 */
export function updateInstallation(tx: WriteTx, ctx: Context, caller: Caller, name: string, id: string, patch: InstallationPatch) {
  const { integration, inst } = visibleInstallation(tx, name, id, caller, 'changing an installation');
  requireInstallationAdmin(tx, inst, caller, 'changing an installation');
  if (Object.keys(patch).length === 0) throw invalid('body: give at least one of externalIds, configuration, space_selection, site_selection');
  if (patch.externalIds && new Set(patch.externalIds).size !== patch.externalIds.length) throw invalid('externalIds: must not repeat an id');
  const configuration = patch.configuration ?? inst.configuration;
  if (patch.configuration) checkConfiguration(integration, configuration);
  const status = statusFor(integration, configuration);
  const next = tx.put(IntegrationInstallations, {
    ...inst,
    ...patch,
    configuration,
    status,
    updatedAt: ctx.clock.now().toISOString(),
  });
  if (patch.configuration || status !== inst.status) {
    recordEvent(tx, ctx, integration, next, {
      type: 'installation_setup',
      installationId: inst.id,
      status,
      previous: { status: inst.status, configuration: inst.configuration },
    });
  }
  return { integration, inst: next };
}

function requireInstallationAdmin(tx: ReadTx, inst: InstallationRecord, caller: Caller, action: string) {
  const member = findMember(tx, inst.organization, caller.userId);
  if (!member) throw forbidden(`${action} needs the admin role in organization ${inst.organization}, where it is installed (you are not a member)`);
  requireOrgRole(member, ADMIN, action);
}

/** DELETE: 205 with an `installation_deleted` event; false (204) when there is none the caller may see. */
export function uninstall(tx: WriteTx, ctx: Context, caller: Caller, name: string, id: string): boolean {
  const integration = findIntegration(tx, name);
  if (!integration || !canSee(tx, integration, caller)) return false;
  const inst = tx.get(IntegrationInstallations, id);
  if (!inst || inst.integration !== integration.id) return false;
  // Like a read: nothing there for those who may not know of it (204), 403 for its organization's other members.
  if (!canSeeInstallation(tx, integration, inst, caller) && !findMember(tx, inst.organization, caller.userId)) return false;
  requireInstallationAdmin(tx, inst, caller, 'uninstalling an integration');
  tx.delete(IntegrationInstallations, inst.id);
  // Its tokens die with it: a token of an uninstalled integration is refused (401) at once.
  revokeInstallationTokens(tx, inst.installedBy, inst.id);
  recordEvent(tx, ctx, integration, inst, { type: 'installation_deleted', installationId: inst.id, previous: { configuration: inst.configuration } });
  return true;
}

// ---- Installations on spaces and sites --------------------------------------------------------
// Installing on an organization with `space_selection: all` (the default) makes the integration
// installed on every live space of it; `selected` on none, since no operation here selects
// spaces one by one. Sites likewise with `site_selection`.

// With `selected`, it is installed on the spaces (sites) installIntegrationOnSpace (OnSite) named.

/** The spaces an installation covers, as the organization's summary keeps them (no space shard read). */
export function spaceEntriesOf(tx: ReadTx, inst: InstallationRecord): SpaceEntry[] {
  return orgSpaces(tx, inst.organization)
    .filter((s) => !s.deletedAt && (inst.space_selection === 'all' || inst.spaceInstalls?.[s.id] !== undefined))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

export function spacesOf(tx: ReadTx, inst: InstallationRecord): SpaceRecord[] {
  return spaceEntriesOf(tx, inst).map((s) => spaceRow(tx, s));
}

export function sitesOf(tx: ReadTx, inst: InstallationRecord): SiteRecord[] {
  return tx
    .find(Sites, 'organization', inst.organization)
    .filter((s) => inst.site_selection === 'all' || inst.siteInstalls?.[s.id] !== undefined)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

export type ContentKind = 'space' | 'site';
const INSTALLS = { space: 'spaceInstalls', site: 'siteInstalls' } as const;
const SELECTION = { space: 'space_selection', site: 'site_selection' } as const;
const TARGETS: Record<ContentKind, string[]> = { space: ['all', 'space'], site: ['all', 'site'] };

/** The live space or site `id` of the installation's organization; 404 for any other (another organization's says nothing). */
function contentOf(tx: ReadTx, inst: InstallationRecord, kind: ContentKind, id: string): SpaceRecord | SiteRecord {
  const row = kind === 'space' ? tx.get(Spaces, id) : tx.get(Sites, id);
  if (!row || row.organization !== inst.organization || (kind === 'space' && (row as SpaceRecord).deletedAt)) {
    throw notFound(`${kind} ${id} not found in organization ${inst.organization}, where installation ${inst.id} is`);
  }
  return row;
}

/** Whether the installation is on that space or site now. */
export const isInstalledOn = (inst: InstallationRecord, kind: ContentKind, id: string) =>
  inst[SELECTION[kind]] === 'all' || inst[INSTALLS[kind]]?.[id] !== undefined;

/** One installation on a space or site: 404 when it is not installed there. */
export function visibleContentInstallation(tx: ReadTx, name: string, id: string, kind: ContentKind, target: string, caller: Caller) {
  const found = visibleInstallation(tx, name, id, caller);
  const row = contentOf(tx, found.inst, kind, target);
  if (!isInstalledOn(found.inst, kind, target)) throw notFound(`integration ${name} (installation ${id}) is not installed on ${kind} ${target}`);
  return { ...found, row, entry: found.inst[INSTALLS[kind]]?.[target] };
}

/**
 * installIntegrationOnSpace / OnSite: the organization's admins, on a space or site of that
 * organization (404 for any other), for an integration whose target allows it (400), once (409).
 * Emits `space_installation_setup` / `site_installation_setup`.
 */
export function installOn(tx: WriteTx, ctx: Context, caller: Caller, name: string, id: string, kind: ContentKind, target: string) {
  const { integration, inst } = visibleInstallation(tx, name, id, caller, `installing on a ${kind}`);
  requireInstallationAdmin(tx, inst, caller, `installing an integration on a ${kind}`);
  contentOf(tx, inst, kind, target);
  if (!TARGETS[kind].includes(integration.target)) throw invalid(`integration ${name} targets ${integration.target}: it cannot be installed on a ${kind}`);
  if (inst[INSTALLS[kind]]?.[target]) throw conflict(`integration ${name} (installation ${id}) is already installed on ${kind} ${target}`);
  const now = ctx.clock.now().toISOString();
  const next = tx.put(IntegrationInstallations, {
    ...inst,
    [INSTALLS[kind]]: { ...inst[INSTALLS[kind]], [target]: { configuration: {}, externalIds: [], createdAt: now, updatedAt: now } },
    updatedAt: now,
  });
  recordEvent(tx, ctx, integration, next, { type: `${kind}_installation_setup`, installationId: inst.id, [`${kind}Id`]: target, status: next.status });
  return { integration, inst: next };
}

/** update...Installation on a space or site: its own externalIds and configuration (400 for an empty patch). */
export function updateOn(
  tx: WriteTx,
  ctx: Context,
  caller: Caller,
  name: string,
  id: string,
  kind: ContentKind,
  target: string,
  patch: { externalIds?: string[]; configuration?: Record<string, unknown> },
) {
  const { integration, inst, entry } = visibleContentInstallation(tx, name, id, kind, target, caller);
  requireInstallationAdmin(tx, inst, caller, `changing an installation on a ${kind}`);
  if (patch.externalIds === undefined && patch.configuration === undefined) throw invalid('body: give at least one of externalIds, configuration');
  if (patch.externalIds && new Set(patch.externalIds).size !== patch.externalIds.length) throw invalid('externalIds: must not repeat an id');
  const now = ctx.clock.now().toISOString();
  const was = entry ?? { configuration: {}, externalIds: [], createdAt: now, updatedAt: now };
  const next = tx.put(IntegrationInstallations, {
    ...inst,
    [INSTALLS[kind]]: { ...inst[INSTALLS[kind]], [target]: { ...was, ...patch, updatedAt: now } },
  });
  if (patch.configuration) {
    recordEvent(tx, ctx, integration, next, {
      type: `${kind}_installation_setup`,
      installationId: inst.id,
      [`${kind}Id`]: target,
      status: next.status,
      previous: { status: inst.status, configuration: was.configuration },
    });
  }
  return { integration, inst: next };
}

/**
 * uninstallIntegrationFromSpace / FromSite: 205 and a `…_installation_deleted` event; 204 when
 * it was not installed there. Under selection `all` it becomes `selected` with every other space
 * (site) kept: the only way to leave one out.
 */
export function uninstallFrom(tx: WriteTx, ctx: Context, caller: Caller, name: string, id: string, kind: ContentKind, target: string): boolean {
  const { integration, inst } = visibleInstallation(tx, name, id, caller, `uninstalling from a ${kind}`);
  requireInstallationAdmin(tx, inst, caller, `uninstalling an integration from a ${kind}`);
  contentOf(tx, inst, kind, target);
  if (!isInstalledOn(inst, kind, target)) return false;
  const now = ctx.clock.now().toISOString();
  const kept: Record<string, ContentInstall> = {};
  const all = kind === 'space' ? spacesOf(tx, inst) : sitesOf(tx, inst);
  for (const r of all) {
    if (r.id !== target) kept[r.id] = inst[INSTALLS[kind]]?.[r.id] ?? { configuration: {}, externalIds: [], createdAt: now, updatedAt: now };
  }
  const next = tx.put(IntegrationInstallations, { ...inst, [SELECTION[kind]]: 'selected', [INSTALLS[kind]]: kept, updatedAt: now });
  recordEvent(tx, ctx, integration, next, {
    type: `${kind}_installation_deleted`,
    installationId: inst.id,
    [`${kind}Id`]: target,
    previous: { configuration: inst[INSTALLS[kind]]?.[target]?.configuration ?? {} },
  });
  return true;
}
