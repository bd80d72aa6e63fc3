import type { Schema } from '../contract/types.js';
import { apiUrl, type Context } from '../kernel/context.js';
import type { MemberRole } from '../kernel/roles.js';
import type { OrganizationRecord } from '../organizations/model.js';
import { presentOrganization } from '../organizations/present.js';
import { RETIRED_CATEGORIES, type ContentInstall, type EventRecord, type InstallationRecord, type IntegrationRecord } from './model.js';

// Record -> contract objects. `secrets` and `script` are never read here: no route returns them.

const integrationPath = (name: string) => `/integrations/${name}`;

/** Published images are kept as given (base64) and shown as data: URLs, so they resolve without an asset host. */
function dataUrl(b64: string): string {
  const head = Buffer.from(b64.slice(0, 32), 'base64');
  const text = head.toString('utf8').trimStart();
  const mime =
    head[0] === 0x89 && head[1] === 0x50
      ? 'image/png'
      : head[0] === 0xff && head[1] === 0xd8
        ? 'image/jpeg'
        : head.subarray(0, 3).toString() === 'GIF'
          ? 'image/gif'
          : head.subarray(8, 12).toString() === 'WEBP'
            ? 'image/webp'
            : text.startsWith('<')
              ? 'image/svg+xml'
              : 'application/octet-stream';
  return `data:${mime};base64,${b64}`;
}

/**
 * The contract's Integration. `owner` is the owning organization as the caller sees it (`role`:
 * their role there, null when not a member); `permissions.admin`: whether they may publish,
 * delete, set development mode and read events (admin of the owner).
 */
export function presentIntegration(ctx: Context, i: IntegrationRecord, owner: OrganizationRecord, role: MemberRole): Schema<'Integration'> {
  return {
    object: 'integration' as const,
    name: i.name,
    version: i.version,
    title: i.title,
    description: i.description,
    ...(i.summary !== undefined ? { summary: i.summary } : {}),
    previewImages: i.previewImages.map(dataUrl),
    target: i.target,
    // Verification is GitBook's review of marketplace integrations: nothing here verifies one.
    verified: false,
    visibility: i.visibility,
    // Stored as validated on input (the contract's scopes and categories).
    scopes: i.scopes as Schema<'Integration'>['scopes'],
    // An integration published before `gitsync` was retired: shown without it (0.202.0).
    categories: i.categories.filter((c) => !RETIRED_CATEGORIES.includes(c)) as Schema<'Integration'>['categories'],
    blocks: i.blocks,
    contentSources: i.contentSources,
    ...(i.configurations !== undefined ? { configurations: i.configurations } : {}),
    externalLinks: i.externalLinks,
    owner: presentOrganization(ctx, owner, role),
    urls: {
      location: apiUrl(ctx, integrationPath(i.name)),
      ...(i.icon ? { icon: dataUrl(i.icon) } : {}),
      app: `${ctx.baseUrl}/integrations/${i.name}`,
      assets: `${ctx.baseUrl}/integrations/${i.name}/assets`,
      publicEndpoint: `${ctx.baseUrl}/integrations/${i.name}/public`,
      // No separate, cookie-free origin for rendered content here: the same endpoint (0.202.0).
      publicContentEndpoint: `${ctx.baseUrl}/integrations/${i.name}/public`,
    },
    permissions: { admin: role === 'admin' },
    ...(i.contentSecurityPolicy !== undefined ? { contentSecurityPolicy: i.contentSecurityPolicy } : {}),
  };
}

const installationPath = (name: string, id: string) => `${integrationPath(name)}/installations/${id}`;

export function presentInstallation(ctx: Context, i: IntegrationRecord, inst: InstallationRecord, spaces: number): Schema<'IntegrationInstallation'> {
  return {
    id: inst.id,
    status: inst.status,
    space_selection: inst.space_selection,
    site_selection: inst.site_selection,
    spaces,
    configuration: inst.configuration,
    createdAt: inst.createdAt,
    updatedAt: inst.updatedAt,
    urls: {
      location: apiUrl(ctx, installationPath(i.name, inst.id)),
      app: `${ctx.baseUrl}/o/${inst.organization}/integrations/${i.name}`,
      publicEndpoint: `${ctx.baseUrl}/integrations/${i.name}/installations/${inst.id}/public`,
      publicContentEndpoint: `${ctx.baseUrl}/integrations/${i.name}/installations/${inst.id}/public`,
    },
    externalIds: inst.externalIds,
    target: { organization: inst.organization },
  };
}

/** An installation on one space or site: it carries the organization installation's state. */
export function presentContentInstallation(
  ctx: Context,
  i: IntegrationRecord,
  inst: InstallationRecord,
  kind: 'space' | 'site',
  target: unknown,
  entry?: ContentInstall,
): Record<string, unknown> {
  return {
    integration: i.name,
    installation: inst.id,
    status: inst.status,
    // Its own configuration and external ids once it has them (installed on it one by one, or updated).
    configuration: entry?.configuration ?? {},
    externalIds: entry?.externalIds ?? inst.externalIds,
    urls: {
      location: apiUrl(ctx, installationPath(i.name, inst.id)),
      publicEndpoint: `${ctx.baseUrl}/integrations/${i.name}/installations/${inst.id}/public`,
      publicContentEndpoint: `${ctx.baseUrl}/integrations/${i.name}/installations/${inst.id}/public`,
    },
    [kind]: target,
  };
}

export function presentEvent(e: EventRecord): Schema<'IntegrationEvent'> {
  return {
    id: e.id,
    integrationId: e.integration,
    ...(e.installation ? { installationId: e.installation } : {}),
    createdAt: e.createdAt,
    // The event as this server built it (src/integrations/events.ts), one of the contract's Events.
    payload: e.payload as Schema<'IntegrationEvent'>['payload'],
    status: e.status,
  };
}
