import type { PageQuery } from '../kernel/pagination.js';
import { apiUrl, type Caller, type Context } from '../kernel/context.js';
import { defineOperation } from '../kernel/operation.js';
import { paginate } from '../kernel/pagination.js';
import { findMember, membershipOf, requireOrgRole } from '../organizations/service.js';
import { visibleSpace } from '../spaces/service.js';
import { DocsError, forbidden, invalid, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { decompressFromEncodedURIComponent } from '../kernel/lz-string.js';
import { operationSpec } from '../contract/spec.js';
import { responseProblem, validateInput } from '../contract/validate.js';
import { cspHeader } from './delivery.js';
import { askIntegration } from './forward.js';
import { integrationScriptUrl } from './scripts.js';
import { recordEvent } from './events.js';
import { IntegrationInstallations, Integrations } from './tables.js';
import { Sites } from '../sites/tables.js';
import { spaceCounts } from '../spaces/counts.js';
import { presentSpace } from '../spaces/present.js';
import { ContentAccess, requireLevel } from '../tree/access.js';
import type { ReadTx } from '../store/port.js';
import { kickDelivery } from './delivery.js';
import { loadIpaddr } from '../kernel/outbound-guard.js';
import { eventOf, eventsOf } from './events.js';
import {
  install,
  installationsOf,
  installOn,
  isInstalledOn,
  sitesOf,
  spaceEntriesOf,
  spacesOf,
  uninstall,
  uninstallFrom,
  updateInstallation,
  updateOn,
  visibleContentInstallation,
  visibleInstallation,
  type ContentKind,
} from './installations.js';
import { installationToken } from './scoped.js';
import type { SiteRecord } from '../sites/model.js';
import type { SpaceRecord } from '../spaces/model.js';
import type { InstallationRecord, IntegrationRecord } from './model.js';
import { presentSite, siteViewer } from '../sites/present.js';
import { presentContentInstallation, presentEvent, presentInstallation, presentIntegration } from './present.js';
import {
  administeredIntegration,
  canSee,
  checkPublish,
  listIntegrations as listVisible,
  publish,
  setDevMode,
  unpublish,
  visibleIntegration,
} from './service.js';
import { Organizations } from '../organizations/tables.js';

function present(tx: ReadTx, ctx: Context, caller: Caller, i: IntegrationRecord) {
  const owner = tx.get(Organizations, i.organization)!;
  return presentIntegration(ctx, i, owner, findMember(tx, i.organization, caller.userId)?.role ?? null);
}

const presentInst = (tx: ReadTx, ctx: Context, i: IntegrationRecord, inst: InstallationRecord) =>
  presentInstallation(ctx, i, inst, spaceEntriesOf(tx, inst).length);

export const listIntegrations = defineOperation('listIntegrations', ({ ctx, caller, query }) =>
  ctx.store.read((tx) => ({ status: 200, body: paginate(listVisible(tx, caller, query), query, (i) => present(tx, ctx, caller, i)) })),
);

export const getIntegrationByName = defineOperation('getIntegrationByName', ({ ctx, caller, path }) =>
  ctx.store.read((tx) => ({ status: 200, body: present(tx, ctx, caller, visibleIntegration(tx, path.integrationName, caller)) })),
);

export const publishIntegration = defineOperation('publishIntegration', async ({ ctx, caller, path, body }) => {
  checkPublish(path.integrationName, body);
  const i = await ctx.store.write((tx) => publish(tx, ctx, caller, path.integrationName, body));
  return { status: 200, body: await ctx.store.read((tx) => present(tx, ctx, caller, i)) };
});

export const unpublishIntegration = defineOperation('unpublishIntegration', async ({ ctx, caller, path }) => {
  const deleted = await ctx.store.write((tx) => unpublish(tx, caller, path.integrationName));
  return { status: deleted ? 205 : 204 };
});

export const listIntegrationInstallations = defineOperation('listIntegrationInstallations', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const i = visibleIntegration(tx, path.integrationName, caller);
    return { status: 200, body: paginate(installationsOf(tx, i, caller, query.externalId), query, (inst) => presentInst(tx, ctx, i, inst)) };
  }),
);

export const installIntegration = defineOperation('installIntegration', async ({ ctx, caller, path, body }) => {
  const { integration, inst } = await ctx.store.write((tx) => install(tx, ctx, caller, path.integrationName, body.organization));
  kickDelivery(ctx);
  const out = await ctx.store.read((tx) => presentInst(tx, ctx, integration, inst));
  return { status: 201, body: out, headers: { Location: out.urls.location } };
});

export const getIntegrationInstallationById = defineOperation('getIntegrationInstallationById', ({ ctx, caller, path }) =>
  ctx.store.read((tx) => {
    const { integration, inst } = visibleInstallation(tx, path.integrationName, path.installationId, caller);
    return { status: 200, body: presentInst(tx, ctx, integration, inst) };
  }),
);

export const updateIntegrationInstallation = defineOperation('updateIntegrationInstallation', async ({ ctx, caller, path, body }) => {
  const { integration, inst } = await ctx.store.write((tx) => updateInstallation(tx, ctx, caller, path.integrationName, path.installationId, body));
  kickDelivery(ctx);
  return { status: 200, body: await ctx.store.read((tx) => presentInst(tx, ctx, integration, inst)) };
});

export const uninstallIntegration = defineOperation('uninstallIntegration', async ({ ctx, caller, path }) => {
  const removed = await ctx.store.write((tx) => uninstall(tx, ctx, caller, path.integrationName, path.installationId));
  if (removed) kickDelivery(ctx);
  return { status: removed ? 205 : 204 };
});

export const listIntegrationSpaceInstallations = defineOperation('listIntegrationSpaceInstallations', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const i = visibleIntegration(tx, path.integrationName, caller);
    const rows = installationsOf(tx, i, caller, query.externalId).flatMap((inst) => {
      const org = tx.get(Organizations, inst.organization);
      const member = findMember(tx, inst.organization, caller.userId);
      // Space objects show the caller's own permissions on them (none when not a member).
      const access = org && member ? new ContentAccess(tx, org, member) : undefined;
      return spacesOf(tx, inst).map((s) => ({ inst, s, level: access ? access.space(s) : null }));
    });
    return {
      status: 200,
      body: paginate(rows, query, ({ inst, s, level }) =>
        presentContentInstallation(ctx, i, inst, 'space', query.extended ? presentSpace(ctx, s, level, spaceCounts(tx, s.id)) : s.id),
      ),
    };
  }),
);

export const listIntegrationSiteInstallations = defineOperation('listIntegrationSiteInstallations', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const i = visibleIntegration(tx, path.integrationName, caller);
    const rows = installationsOf(tx, i, caller, query.externalId).flatMap((inst) => sitesOf(tx, inst).map((s) => ({ inst, s })));
    return {
      status: 200,
      body: paginate(rows, query, ({ inst, s }) =>
        presentContentInstallation(
          ctx,
          i,
          inst,
          'site',
          query.extended ? presentSite(ctx, tx, tx.get(Organizations, s.organization)!, s, undefined, siteViewer(tx, s.organization, caller)) : s.id,
        ),
      ),
    };
  }),
);

export const listIntegrationEvents = defineOperation('listIntegrationEvents', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => ({ status: 200, body: paginate(eventsOf(tx, caller, path.integrationName), query, presentEvent) })),
);

export const getIntegrationEvent = defineOperation('getIntegrationEvent', ({ ctx, caller, path }) =>
  ctx.store.read((tx) => {
    const e = eventOf(tx, caller, path.integrationName, path.eventId);
    return { status: 200, body: { event: presentEvent(e), trace: { logs: e.trace } } };
  }),
);

export const setIntegrationDevelopmentMode = defineOperation('setIntegrationDevelopmentMode', async ({ ctx, caller, path, body }) => {
  // The URL is checked inside, after the integration and the caller's right: an outsider learns
  // nothing from the rules of the input.
  const ip = await loadIpaddr();
  await ctx.store.write((tx) => setDevMode(tx, ctx, caller, path.integrationName, { tunnelUrl: body.tunnelUrl, all: body.all ?? false }, ip));
  return { status: 204 };
});

export const disableIntegrationDevelopmentMode = defineOperation('disableIntegrationDevelopmentMode', async ({ ctx, caller, path }) => {
  await ctx.store.write((tx) => setDevMode(tx, ctx, caller, path.integrationName, undefined));
  return { status: 205 };
});

// ---- Installation tokens (docs/manual/integrations.md#scoped-callers) ---------------------------

export const createIntegrationInstallationToken = defineOperation('createIntegrationInstallationToken', async ({ ctx, caller, path }) => {
  const token = await ctx.store.write((tx) => installationToken(tx, ctx, caller, path.integrationName, path.installationId));
  return { status: 200, body: { token } };
});

// ---- Installations on spaces and sites (docs/manual/integrations.md#installations-on-spaces-and-sites) ----

/** The space or site of a content installation, as the contract's `extended` asks: the object, or its id. */
function target(tx: ReadTx, ctx: Context, caller: Caller, kind: ContentKind, row: SpaceRecord | SiteRecord, extended: boolean | undefined) {
  if (!extended) return row.id;
  if (kind === 'site') {
    const s = row as SiteRecord;
    return presentSite(ctx, tx, tx.get(Organizations, s.organization)!, s, undefined, siteViewer(tx, s.organization, caller));
  }
  const s = row as SpaceRecord;
  const org = tx.get(Organizations, s.organization);
  const member = findMember(tx, s.organization, caller.userId);
  return presentSpace(ctx, s, org && member ? new ContentAccess(tx, org, member).space(s) : null, spaceCounts(tx, s.id));
}

const contentRead =
  (kind: ContentKind) =>
  ({ ctx, caller, path, query }: any) =>
    ctx.store.read((tx: ReadTx) => {
      const id = kind === 'space' ? path.spaceId : path.siteId;
      const { integration, inst, row, entry } = visibleContentInstallation(tx, path.integrationName, path.installationId, kind, id, caller);
      return { status: 200, body: presentContentInstallation(ctx, integration, inst, kind, target(tx, ctx, caller, kind, row, query.extended), entry) };
    });

const contentList =
  (kind: ContentKind) =>
  ({ ctx, caller, path, query }: any) =>
    ctx.store.read((tx: ReadTx) => {
      const { integration, inst } = visibleInstallation(tx, path.integrationName, path.installationId, caller);
      const rows: (SpaceRecord | SiteRecord)[] = kind === 'space' ? spacesOf(tx, inst) : sitesOf(tx, inst);
      const installs = kind === 'space' ? inst.spaceInstalls : inst.siteInstalls;
      return {
        status: 200,
        body: paginate(rows, query, (r) =>
          presentContentInstallation(ctx, integration, inst, kind, target(tx, ctx, caller, kind, r, query.extended), installs?.[r.id]),
        ),
      };
    });

const contentInstall =
  (kind: ContentKind) =>
  async ({ ctx, caller, path, body, query }: any) => {
    const id: string = kind === 'space' ? body.space : body.siteId;
    await ctx.store.write((tx: any) => installOn(tx, ctx, caller, path.integrationName, path.installationId, kind, id));
    kickDelivery(ctx);
    const out = await contentRead(kind)({ ctx, caller, path: { ...path, [kind === 'space' ? 'spaceId' : 'siteId']: id }, query });
    const location = apiUrl(ctx, `/integrations/${path.integrationName}/installations/${path.installationId}/${kind}s/${id}`);
    return { status: 201, body: out.body, headers: { Location: location } };
  };

const contentUpdate =
  (kind: ContentKind) =>
  async ({ ctx, caller, path, body, query }: any) => {
    const id = kind === 'space' ? path.spaceId : path.siteId;
    await ctx.store.write((tx: any) => updateOn(tx, ctx, caller, path.integrationName, path.installationId, kind, id, body ?? {}));
    kickDelivery(ctx);
    return contentRead(kind)({ ctx, caller, path, query });
  };

const contentUninstall =
  (kind: ContentKind) =>
  async ({ ctx, caller, path }: any) => {
    const id = kind === 'space' ? path.spaceId : path.siteId;
    const removed = await ctx.store.write((tx: any) => uninstallFrom(tx, ctx, caller, path.integrationName, path.installationId, kind, id));
    if (removed) kickDelivery(ctx);
    return { status: removed ? 205 : 204 };
  };

export const installIntegrationOnSpace = defineOperation('installIntegrationOnSpace', contentInstall('space'));
export const listIntegrationInstallationSpaces = defineOperation('listIntegrationInstallationSpaces', contentList('space'));
export const getIntegrationSpaceInstallation = defineOperation('getIntegrationSpaceInstallation', contentRead('space'));
export const updateIntegrationSpaceInstallation = defineOperation('updateIntegrationSpaceInstallation', contentUpdate('space'));
export const uninstallIntegrationFromSpace = defineOperation('uninstallIntegrationFromSpace', contentUninstall('space'));
export const installIntegrationOnSite = defineOperation('installIntegrationOnSite', contentInstall('site'));
export const listIntegrationInstallationSites = defineOperation('listIntegrationInstallationSites', contentList('site'));
export const getIntegrationSiteInstallation = defineOperation('getIntegrationSiteInstallation', contentRead('site'));
export const updateIntegrationSiteInstallation = defineOperation('updateIntegrationSiteInstallation', contentUpdate('site'));
export const uninstallIntegrationFromSite = defineOperation('uninstallIntegrationFromSite', contentUninstall('site'));

// ---- What is installed where (docs/manual/integrations.md#what-is-installed-where) ----------------

/** The installations in an organization, with their integrations, oldest first. */
function installedIn(tx: ReadTx, organization: string) {
  return tx
    .find(IntegrationInstallations, 'organization', organization)
    .map((inst) => ({ inst, integration: tx.get(Integrations, inst.integration) }))
    .filter((x): x is { inst: InstallationRecord; integration: IntegrationRecord } => x.integration !== undefined)
    .sort((a, b) => a.inst.createdAt.localeCompare(b.inst.createdAt) || a.inst.id.localeCompare(b.inst.id));
}

/** Integrations, as listIntegrations filters them for the caller, among `installed`. */
const amongInstalled = (tx: ReadTx, caller: Caller, query: any, installed: IntegrationRecord[]) => {
  const ids = new Set(installed.map((i) => i.id));
  return listVisible(tx, caller, query).filter((i) => ids.has(i.id));
};

export const listOrganizationIntegrations = defineOperation('listOrganizationIntegrations', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    membershipOf(tx, path.organizationId, caller);
    const installed = installedIn(tx, path.organizationId).map((x) => x.integration);
    return { status: 200, body: paginate(amongInstalled(tx, caller, query, installed), query as PageQuery, (i) => present(tx, ctx, caller, i)) };
  }),
);

export const listOrganizationInstallations = defineOperation('listOrganizationInstallations', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const { member } = membershipOf(tx, path.organizationId, caller);
    requireOrgRole(member, 'admin', 'listing the installations of an organization');
    const search = query.search?.trim().toLowerCase();
    const rows = installedIn(tx, path.organizationId).filter(
      ({ integration: i }) => !search || i.name.toLowerCase().includes(search) || i.title.toLowerCase().includes(search),
    );
    return {
      status: 200,
      body: paginate(rows, query, ({ inst, integration }) => ({
        installation: presentInst(tx, ctx, integration, inst),
        integration: present(tx, ctx, caller, integration),
      })),
    };
  }),
);

export const getOrganizationIntegrationStatus = defineOperation('getOrganizationIntegrationStatus', ({ ctx, caller, path }) =>
  ctx.store.read((tx) => {
    membershipOf(tx, path.organizationId, caller);
    const i = visibleIntegration(tx, path.integrationName, caller);
    const inst = tx.find(IntegrationInstallations, 'integration', i.id).find((x) => x.organization === path.organizationId);
    if (!inst) throw notFound(`integration ${path.integrationName} is not installed in organization ${path.organizationId}`);
    return { status: 200, body: { status: inst.status } };
  }),
);

export const listSpaceIntegrations = defineOperation('listSpaceIntegrations', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const { row } = visibleSpace(tx, caller, path.spaceId);
    const installed = installedIn(tx, row.organization)
      .filter(({ inst, integration }) => isInstalledOn(inst, 'space', row.id) && integration.target !== 'site')
      .map((x) => x.integration);
    return { status: 200, body: paginate(amongInstalled(tx, caller, query, installed), query as PageQuery, (i) => present(tx, ctx, caller, i)) };
  }),
);

export const listSiteIntegrations = defineOperation('listSiteIntegrations', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    membershipOf(tx, path.organizationId, caller);
    const site = tx.get(Sites, path.siteId);
    if (!site || site.organization !== path.organizationId) throw notFound(`site ${path.siteId} not found`);
    const installed = installedIn(tx, site.organization)
      .filter(({ inst, integration }) => isInstalledOn(inst, 'site', site.id) && integration.target !== 'space')
      .map((x) => x.integration);
    return { status: 200, body: paginate(amongInstalled(tx, caller, query, installed), query as PageQuery, (i) => present(tx, ctx, caller, i)) };
  }),
);

// ---- Statuses, scripts and blocks by target (docs/manual/integrations.md#what-is-installed-where) ----

/** listOrganizationIntegrationsStatus: every installation of a target kind with its status and integration. */
export const listOrganizationIntegrationsStatus = defineOperation('listOrganizationIntegrationsStatus', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    membershipOf(tx, path.organizationId, caller);
    const kind = query.target ?? 'organization';
    if (query.site !== undefined && kind !== 'site') throw invalid('site: only valid with target=site');
    if (query.space !== undefined && kind !== 'space') throw invalid('space: only valid with target=space');
    const visible = new Set(listVisible(tx, caller, {}).map((i) => i.id));
    const installed = installedIn(tx, path.organizationId).filter(({ integration }) => visible.has(integration.id));
    type Row = { inst: InstallationRecord; integration: IntegrationRecord; target: InstalledTarget };
    const rows: Row[] =
      kind === 'organization'
        ? installed.map((x) => ({ ...x, target: { type: 'organization', organizationId: path.organizationId } }))
        : installed.flatMap((x): Row[] =>
            kind === 'space'
              ? spacesOf(tx, x.inst)
                  .filter((s) => x.integration.target !== 'site' && (query.space === undefined || s.id === query.space))
                  .map((s) => ({ ...x, target: { type: 'space' as const, spaceId: s.id } }))
              : sitesOf(tx, x.inst)
                  .filter((s) => x.integration.target !== 'space' && (query.site === undefined || s.id === query.site))
                  .map((s) => ({ ...x, target: { type: 'site' as const, siteId: s.id } })),
          );
    return {
      status: 200,
      body: paginate(rows, query as PageQuery, ({ inst, integration, target }) => ({
        status: inst.status,
        integration: present(tx, ctx, caller, integration),
        target,
      })),
    };
  }),
);

type InstalledTarget = { type: 'organization'; organizationId: string } | { type: 'space'; spaceId: string } | { type: 'site'; siteId: string };

/** The site an organization's member names, or 404. */
function siteOf(tx: ReadTx, caller: Caller, organizationId: string, siteId: string): SiteRecord {
  membershipOf(tx, organizationId, caller);
  const site = tx.get(Sites, siteId);
  if (!site || site.organization !== organizationId) throw notFound(`site ${siteId} not found`);
  return site;
}

/**
 * listSiteIntegrationScripts: the scripts the site's visitors load, one per installation on the
 * site of an integration that holds `site:script:inject` (`cookies` when it also holds
 * `site:script:cookies`). The URL is this server's, and answers with what the integration's
 * `fetch_published_script` handler returns (server/integration-scripts.ts, src/integrations/scripts.ts).
 */
export const listSiteIntegrationScripts = defineOperation('listSiteIntegrationScripts', ({ ctx, caller, path }) =>
  ctx.store.read((tx) => {
    const site = siteOf(tx, caller, path.organizationId, path.siteId);
    const body = installedIn(tx, site.organization)
      .filter(({ inst, integration: i }) => isInstalledOn(inst, 'site', site.id) && i.target !== 'space' && i.scopes.includes('site:script:inject'))
      .map(({ inst, integration: i }) => {
        const csp = cspHeader(i.contentSecurityPolicy);
        return {
          script: integrationScriptUrl(ctx, inst.id, site.id),
          ...(csp ? { contentSecurityPolicy: csp } : {}),
          cookies: i.scopes.includes('site:script:cookies'),
        };
      });
    return { status: 200, body };
  }),
);

/** listSpaceIntegrationsBlocks: the blocks declared by the integrations installed on a space. */
export const listSpaceIntegrationsBlocks = defineOperation('listSpaceIntegrationsBlocks', ({ ctx, caller, path }) =>
  ctx.store.read((tx) => {
    const { row } = visibleSpace(tx, caller, path.spaceId);
    const body = installedIn(tx, row.organization)
      .filter(({ inst, integration: i }) => isInstalledOn(inst, 'space', row.id) && i.target !== 'site' && i.blocks.length > 0 && canSee(tx, i, caller))
      .map(({ integration: i }) => ({ name: i.name, blocks: i.blocks }));
    return { status: 200, body };
  }),
);

// ---- Tasks and UI render (docs/manual/integrations.md#ui-render-and-tasks) -------------------------

/**
 * Who speaks for an integration: a token of one of its installations (GitBook's integration
 * token; the task is recorded for that installation), or an admin of the organization that owns it.
 */
function actingFor(tx: ReadTx, caller: Caller, name: string, action: string): { integration: IntegrationRecord; inst?: InstallationRecord } {
  const inst = caller.scope?.installation;
  if (inst) {
    const row = tx.get(IntegrationInstallations, inst.id);
    const integration = tx.get(Integrations, inst.integration);
    if (inst.integrationName !== name || !row || !integration)
      throw forbidden(`${action}: the token of installation ${inst.id} speaks only for integration ${inst.integrationName}`);
    return { integration, inst: row };
  }
  return { integration: administeredIntegration(tx, name, caller, action) };
}

export const queueIntegrationTask = defineOperation('queueIntegrationTask', async ({ ctx, caller, path, body }) => {
  const due = body.schedule ? new Date(ctx.clock.now().getTime() + body.schedule * 1000) : undefined;
  await ctx.store.write((tx) => {
    const { integration, inst } = actingFor(tx, caller, path.integrationName, 'queueing a task of an integration');
    recordEvent(tx, ctx, integration, inst, { type: 'integration_task', task: body.task }, { due });
  });
  kickDelivery(ctx);
  return { status: 204 };
});

/** The integration a caller may render: one they can see that is installed in one of their organizations (or that theirs owns). */
function renderable(tx: ReadTx, caller: Caller, name: string): IntegrationRecord {
  const i = visibleIntegration(tx, name, caller);
  if (caller.scope?.installation && caller.scope.installation.integrationName !== name) {
    throw forbidden(
      `rendering the UI of integration ${name}: the token of installation ${caller.scope.installation.id} speaks only for ${caller.scope.installation.integrationName}`,
    );
  }
  const mine = (org: string) => !!findMember(tx, org, caller.userId);
  if (mine(i.organization) || tx.find(IntegrationInstallations, 'integration', i.id).some((inst) => mine(inst.organization))) return i;
  throw forbidden(`rendering the UI of integration ${name} needs it installed in one of your organizations`);
}

async function render(ctx: Context, caller: Caller, name: string, request: Record<string, any>) {
  const i = await ctx.store.read((tx) => renderable(tx, caller, name));
  const answer = await askIntegration(ctx, i, {
    type: 'ui_render',
    eventId: newId(),
    integrationId: i.id,
    auth: { userId: caller.userId },
    componentId: request.componentId,
    props: request.props,
    ...(request.state !== undefined ? { state: request.state } : {}),
    context: request.context,
    ...(request.action !== undefined ? { action: request.action } : {}),
  });
  const problem = responseProblem(operationSpec('renderIntegrationUIWithPost'), 200, answer);
  if (problem) throw new DocsError('unavailable', `integration ${name} did not answer a ContentKit render output: ${problem}`);
  return { status: 200, body: answer as any, headers: { 'Cache-Control': 'no-store' } };
}

export const renderIntegrationUIWithPost = defineOperation('renderIntegrationUIWithPost', ({ ctx, caller, path, body }) =>
  render(ctx, caller, path.integrationName, body),
);

/** The GET form carries the same request, as JSON compressed with LZ-string (`compressToEncodedURIComponent`). */
export const renderIntegrationUIWithGet = defineOperation('renderIntegrationUIWithGet', async ({ ctx, caller, path, query }) => {
  // Who may render first: an outsider learns nothing from the rules of the request.
  await ctx.store.read((tx) => renderable(tx, caller, path.integrationName));
  const text = decompressFromEncodedURIComponent(String(query.request));
  let request: any;
  try {
    request = text === null ? undefined : JSON.parse(text);
  } catch {}
  if (!request || typeof request !== 'object' || Array.isArray(request)) {
    throw invalid('request: must be a JSON object compressed with LZ-string (compressToEncodedURIComponent)');
  }
  // The same rules as the POST form's body, in the same words ("request." for "body.").
  try {
    validateInput(operationSpec('renderIntegrationUIWithPost'), { path: { integrationName: path.integrationName }, body: request });
  } catch (e) {
    throw e instanceof DocsError ? invalid(e.message.replace(/^body/, 'request')) : e;
  }
  return render(ctx, caller, path.integrationName, request);
});

/**
 * deleteLegacyGitInstallation (0.146.0 only): GitBook's Git Sync before integrations. This server
 * never had it, so no space has one: for a space admin the answer is the spec's "already removed"
 * (204), after the same checks as any change to the space (docs/manual/integrations.md#legacy-git-installations).
 */
export const deleteLegacyGitInstallation = defineOperation('deleteLegacyGitInstallation', ({ ctx, caller, path }) =>
  ctx.store.read((tx) => {
    const { level } = visibleSpace(tx, caller, path.spaceId);
    requireLevel(level, 'admin', 'removing the legacy Git installation of a space', `space ${path.spaceId}`);
    return { status: 204 };
  }),
);
