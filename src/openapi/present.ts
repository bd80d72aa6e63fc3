import type { Schema } from '../contract/types.js';
import { apiUrl, type Context } from '../kernel/context.js';
import type { MemberRole } from '../kernel/roles.js';
import type { OpenAPISpecRecord, OpenAPIVersionRecord } from './model.js';
import { canEditSpecs } from './service.js';

const specPath = (s: { organization: string; slug: string }) => `/orgs/${s.organization}/openapi/${s.slug}`;

/** The contract's OpenAPISpec, as seen by a member of the given role (who can see it). */
export function presentSpec(ctx: Context, s: OpenAPISpecRecord, role: MemberRole): Schema<'OpenAPISpec'> {
  return {
    object: 'openapi-spec' as const,
    id: s.id,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    slug: s.slug,
    ...(s.sourceURL ? { sourceURL: s.sourceURL } : {}),
    processingState: s.processingState,
    visibility: s.visibility,
    ...(s.lastVersion ? { lastVersion: s.lastVersion } : {}),
    ...(s.lastProcessedAt ? { lastProcessedAt: s.lastProcessedAt } : {}),
    ...(s.lastProcessErrorCode ? { lastProcessErrorCode: s.lastProcessErrorCode } : {}),
    ...(s.lastProcessedErrors ? { lastProcessedErrors: s.lastProcessedErrors } : {}),
    // The errors of the last processing, all of them (0 before the first, and after a success);
    // a spec processed before the count was kept: the errors it kept, the "more" line aside.
    lastProcessedErrorCount: s.lastProcessedErrorCount ?? (s.lastProcessedErrors ?? []).filter((e) => e.code !== 'MORE').length,
    permissions: { view: true, edit: canEditSpecs(role) },
    // No published site hosts specs here, so `urls.published` is never set.
    urls: { location: apiUrl(ctx, specPath(s)), app: `${ctx.baseUrl}/o/${s.organization}/openapi/${s.slug}` },
  };
}

/**
 * Where a version's document can be read: the URL it was fetched from, or for a text source
 * this server's content route for that version.
 */
export function versionUrl(ctx: Context, spec: OpenAPISpecRecord, v: OpenAPIVersionRecord): string {
  return v.sourceURL ?? apiUrl(ctx, `${specPath(spec)}/versions/${v.id}/content`);
}

export function presentVersion(ctx: Context, spec: OpenAPISpecRecord, v: OpenAPIVersionRecord): Schema<'OpenAPISpecVersion'> {
  return {
    object: 'openapi-spec-version' as const,
    id: v.id,
    createdAt: v.createdAt,
    url: versionUrl(ctx, spec, v),
    urls: { location: apiUrl(ctx, `${specPath(spec)}/versions/${v.id}`) },
  };
}
