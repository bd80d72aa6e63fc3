import { mintScopedToken } from '../auth/scope.js';
import type { OperationSpec } from '../contract/spec.js';
import type { Caller, Context } from '../kernel/context.js';
import { DocsError, forbidden } from '../kernel/errors.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { isInstalledOn, visibleInstallation } from './installations.js';
import { isOwnerAdmin } from './service.js';
import { IntegrationInstallations, Integrations } from './tables.js';
import { Spaces as SpacesT } from '../spaces/tables.js';
import { Sites as SitesT } from '../sites/tables.js';

// Scoped callers: who may mint an installation token, and what a scoped token may do
// (docs/manual/integrations.md#scoped-callers). src/invoke.ts calls checkScope for every caller
// that carries a scope, before the handler; the handler then checks the token's user's rights as
// for anyone. So a scoped call does at most what both allow.

/**
 * createIntegrationInstallationToken: the integration's developers (admins of the organization
 * that owns it) mint a token acting for one of its installations. It acts as the member who
 * installed it, limited to the installation's organization, spaces and sites and to the scopes
 * the integration declares.
 */
export function installationToken(tx: WriteTx, ctx: Context, caller: Caller, name: string, id: string): string {
  const { integration, inst } = visibleInstallation(tx, name, id, caller, 'creating an installation token');
  if (!isOwnerAdmin(tx, integration, caller)) {
    throw forbidden(`creating an installation token of integration ${name} needs the admin role in organization ${integration.organization}, which owns it`);
  }
  const scope = {
    kind: 'installation' as const,
    organization: inst.organization,
    scopes: [...integration.scopes],
    installation: { id: inst.id, integration: integration.id, integrationName: integration.name },
  };
  return mintScopedToken(tx, ctx, inst.installedBy, scope, `installation ${inst.id} of ${integration.name}`).token;
}

// An installation token reads and writes its installation (GitBook's `integration:installation:*`
// API scopes, which every integration holds) and nothing else of integrations.
const OWN_INSTALLATION = new Set([
  'getIntegrationInstallationById',
  'updateIntegrationInstallation',
  'listIntegrationInstallationSpaces',
  'getIntegrationSpaceInstallation',
  'updateIntegrationSpaceInstallation',
  'listIntegrationInstallationSites',
  'getIntegrationSiteInstallation',
  'updateIntegrationSiteInstallation',
]);

// An installation token speaks for its integration (GitBook's integration token): it queues the
// integration's tasks and renders its UI (docs/manual/integrations.md#ui-render-and-tasks).
const NOTIFICATIONS = new Set(['getAuthenticatedUser']);

const OWN_INTEGRATION = new Set(['queueIntegrationTask', 'renderIntegrationUIWithGet', 'renderIntegrationUIWithPost']);

/**
 * The integration scope an operation needs, from its method and path; undefined when no scope
 * opens it (everything else: a scoped token may not call it). Every path listed is anchored on a
 * space, a site or the organization, which checkScope then holds to the scope's targets.
 */
export function requiredScope(spec: Pick<OperationSpec, 'method' | 'path' | 'operationId'>): string | 'own-installation' | 'own-integration' | undefined {
  if (OWN_INSTALLATION.has(spec.operationId)) return 'own-installation';
  if (OWN_INTEGRATION.has(spec.operationId)) return 'own-integration';
  const read = spec.method.toUpperCase() === 'GET';
  const p = spec.path;
  if (p === '/spaces/{spaceId}') return read ? 'space:metadata:read' : spec.method.toUpperCase() === 'PATCH' ? 'space:metadata:write' : undefined;
  if (/^\/spaces\/\{spaceId\}\/(content|revisions)(\/|$)/.test(p)) return read ? 'space:content:read' : 'space:content:write';
  if (/^\/spaces\/\{spaceId\}\/change-requests(\/|$)/.test(p)) return read ? 'space:content:read' : 'space:content:write';
  if (/^\/orgs\/\{organizationId\}\/sites\/\{siteId\}(\/|$)/.test(p) && read) return 'site:metadata:read';
  if (/^\/orgs\/\{organizationId\}\/openapi(\/|$)/.test(p)) return read ? 'openapi:read' : 'openapi:write';
  return undefined;
}

/**
 * Holds a scoped caller to its scope: the operation must need a scope it holds, and every space,
 * site, organization, integration and installation its path names must be within the scope.
 * 403 naming what is out of scope; 401 when the installation is gone (a token outliving it).
 */
export async function checkScope(ctx: Context, spec: OperationSpec, path: Record<string, any>, caller: Caller): Promise<void> {
  const scope = caller.scope!;
  // A notifications token (createUserNotificationsToken, docs/manual/access.md#notifications-tokens)
  // reads its own user and nothing else: this server has no notifications service to open.
  if (scope.kind === 'notifications') {
    if (NOTIFICATIONS.has(spec.operationId)) return;
    throw forbidden(`${spec.operationId} is not open to a notifications token: it reads only its own user (${[...NOTIFICATIONS].join(', ')})`);
  }
  const organization = scope.organization!;
  const need = requiredScope(spec);
  const who =
    scope.kind === 'installation'
      ? `the token of installation ${scope.installation!.id} (${scope.installation!.integrationName})`
      : 'this published-content token';
  if (need === undefined) throw forbidden(`${spec.operationId} is not open to ${who}: a scoped token calls only operations its scopes cover`);
  if (need !== 'own-installation' && need !== 'own-integration' && !scope.scopes.includes(need)) {
    throw forbidden(`${spec.operationId} needs the scope ${need}, which ${who} does not hold (it holds: ${scope.scopes.join(', ') || 'none'})`);
  }
  // Published-content tokens read the published content: not drafts (change requests), not installations.
  if (scope.kind === 'published' && (need === 'own-installation' || need === 'own-integration' || /change-requests/.test(spec.path))) {
    throw forbidden(`${spec.operationId} is not open to ${who}: it reads only the published content it was made for`);
  }
  await ctx.store.read((tx: ReadTx) => {
    const inst = scope.installation ? tx.get(IntegrationInstallations, scope.installation.id) : undefined;
    if (scope.installation && (!inst || !tx.get(Integrations, scope.installation.integration))) {
      throw new DocsError('unauthenticated', `invalid token: installation ${scope.installation.id} no longer exists`);
    }
    const out = (what: string) => forbidden(`${spec.operationId}: ${what} is outside the scope of ${who}`);
    if (path.organizationId !== undefined && path.organizationId !== organization) throw out(`organization ${path.organizationId}`);
    if (need === 'own-integration' && path.integrationName !== scope.installation!.integrationName) throw out(`integration ${path.integrationName}`);
    if (need === 'own-installation') {
      if (path.integrationName !== scope.installation!.integrationName) throw out(`integration ${path.integrationName}`);
      if (path.installationId !== scope.installation!.id) throw out(`installation ${path.installationId}`);
    }
    for (const kind of ['space', 'site'] as const) {
      const id = path[`${kind}Id`];
      if (id === undefined) continue;
      const within = inst ? isInstalledOnLive(tx, inst, kind, id, organization) : (kind === 'space' ? scope.spaces : scope.sites)?.includes(id);
      if (!within) throw out(`${kind} ${id}`);
    }
  });
}

/** On an installation's live space or site of its own organization (an id of another organization is outside). */
function isInstalledOnLive(tx: ReadTx, inst: import('./model.js').InstallationRecord, kind: 'space' | 'site', id: string, organization: string): boolean {
  return isInstalledOn(inst, kind, id) && belongs(tx, kind, id, organization);
}

const belongs = (tx: ReadTx, kind: 'space' | 'site', id: string, organization: string) => {
  const row: { organization: string; deletedAt?: string } | undefined = kind === 'space' ? tx.get(SpacesT, id) : tx.get(SitesT, id);
  return !!row && row.organization === organization && !row.deletedAt;
};
