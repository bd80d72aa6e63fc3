import type { Caller, Context } from '../kernel/context.js';
import { conflict, invalid, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { atLeast, type MemberRole } from '../kernel/roles.js';
import type { MemberRecord, OrganizationRecord } from '../organizations/model.js';
import { membershipOf, requireOrgRole } from '../organizations/service.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { specKey, type OpenAPISpecRecord, type OpenAPIVersionRecord, type SpecVisibility } from './model.js';
import { OpenapiSources, OpenapiSpecs, OpenapiVersions } from './tables.js';

// The rules of OpenAPI specs. Who may do what (docs/manual/openapi.md): members with the
// `create` role or above create, update and delete specs (the organization's
// `createOpenAPISpec` permission); every member from `read` up sees every spec; guests see
// only public ones; non-members see nothing (404).

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const EDIT_ROLE = 'create';

export interface SpecSource {
  url?: string;
  text?: string;
}

export interface SpecAccess {
  org: OrganizationRecord;
  member: MemberRecord;
}

export const canViewSpec = (role: MemberRole, spec: OpenAPISpecRecord) => atLeast(role, 'read') || spec.visibility === 'public';
export const canEditSpecs = (role: MemberRole) => atLeast(role, EDIT_ROLE);

/** A slug from a path: its shape is the contract's (the path parameter itself is a plain string). */
export function checkSlug(slug: string, field = 'specSlug'): void {
  if (slug.length < 1 || slug.length > 100 || !SLUG.test(slug)) {
    throw invalid(`${field}: must be 1 to 100 lowercase letters and digits in groups separated by single hyphens (e.g. petstore-v2)`);
  }
}

/** What the schema cannot say about a source: a URL must be fetchable (http or https). */
export function checkSource(source: SpecSource): SpecSource {
  if (source.url !== undefined) {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(source.url)?.[1]?.toLowerCase();
    if (scheme !== 'http' && scheme !== 'https') throw invalid('source.url: must be an http or https URL');
    return { url: source.url };
  }
  if (!source.text?.trim()) throw invalid('source.text: must not be empty');
  return { text: source.text };
}

export function findSpec(tx: ReadTx, organization: string, slug: string): OpenAPISpecRecord | undefined {
  return tx.find(OpenapiSpecs, 'key', specKey(organization, slug))[0];
}

/** The spec the caller may see, or a 404 that says nothing about specs they may not see. */
export function visibleSpec(tx: ReadTx, organizationId: string, slug: string, caller: Caller): SpecAccess & { spec: OpenAPISpecRecord } {
  const access = membershipOf(tx, organizationId, caller);
  const spec = findSpec(tx, access.org.id, slug);
  if (!spec || !canViewSpec(access.member.role, spec)) throw notFound(`openapi spec ${slug} not found in organization ${organizationId}`);
  return { ...access, spec };
}

export function listVisibleSpecs(tx: ReadTx, organizationId: string, caller: Caller) {
  const access = membershipOf(tx, organizationId, caller);
  const specs = tx
    .find(OpenapiSpecs, 'organization', access.org.id)
    .filter((s) => canViewSpec(access.member.role, s))
    .sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  return { ...access, specs };
}

/** Versions of a spec, newest first. */
export function versionsOf(tx: ReadTx, specId: string): OpenAPIVersionRecord[] {
  return tx.find(OpenapiVersions, 'spec', specId).sort((a, b) => b.seq - a.seq);
}

/** `latest` or a version id of this spec; 404 otherwise. */
export function versionOf(tx: ReadTx, spec: OpenAPISpecRecord, versionId: string): OpenAPIVersionRecord {
  const v = versionId === 'latest' ? (spec.lastVersion ? tx.get(OpenapiVersions, spec.lastVersion) : undefined) : tx.get(OpenapiVersions, versionId);
  if (!v || v.spec !== spec.id) {
    throw notFound(
      versionId === 'latest'
        ? `openapi spec ${spec.slug} has no version yet (processingState: ${spec.processingState})`
        : `version ${versionId} of openapi spec ${spec.slug} not found`,
    );
  }
  return v;
}

function requireEditor(tx: ReadTx, organizationId: string, caller: Caller, action: string): SpecAccess {
  const access = membershipOf(tx, organizationId, caller);
  requireOrgRole(access.member, EDIT_ROLE, action);
  return access;
}

/** Points a spec at a new source: processing starts over (pending), whatever it was doing. */
function restart(tx: WriteTx, _ctx: Context, spec: OpenAPISpecRecord, source: SpecSource, now: string): OpenAPISpecRecord {
  const { sourceURL: _old, ...rest } = spec;
  const next = tx.put(OpenapiSpecs, {
    ...rest,
    ...(source.url !== undefined ? { sourceURL: source.url } : {}),
    processingState: 'pending',
    generation: spec.generation + 1,
    updatedAt: now,
  });
  if (source.text !== undefined) tx.put(OpenapiSources, { id: spec.id, spec: spec.id, generation: next.generation, text: source.text });
  else tx.delete(OpenapiSources, spec.id);
  return next;
}

function insertSpec(tx: WriteTx, ctx: Context, org: OrganizationRecord, slug: string, source: SpecSource, caller: Caller): OpenAPISpecRecord {
  const now = ctx.clock.now().toISOString();
  const base: OpenAPISpecRecord = {
    id: newId(),
    organization: org.id,
    slug,
    key: specKey(org.id, slug),
    createdAt: now,
    updatedAt: now,
    createdBy: caller.userId,
    visibility: 'private',
    processingState: 'pending',
    generation: 0,
    versionCount: 0,
  };
  return restart(tx, ctx, base, source, now);
}

/** POST: a new spec; a slug already taken in the organization is a conflict (PUT updates). */
export function createSpec(tx: WriteTx, ctx: Context, organizationId: string, caller: Caller, slug: string, source: SpecSource) {
  const { org, member } = requireEditor(tx, organizationId, caller, 'creating an OpenAPI spec');
  if (findSpec(tx, org.id, slug))
    throw conflict(`slug: an OpenAPI spec ${slug} already exists in this organization (PUT /orgs/${org.id}/openapi/${slug} updates it)`);
  return { spec: insertSpec(tx, ctx, org, slug, source, caller), member };
}

/**
 * PUT: update or create, in one synchronous write, so that two concurrent PUTs of the same slug
 * (the store runs writes one after the other) make one spec, the second updating the first.
 */
export function upsertSpec(tx: WriteTx, ctx: Context, organizationId: string, caller: Caller, slug: string, source: SpecSource) {
  const { org, member } = requireEditor(tx, organizationId, caller, 'publishing an OpenAPI spec');
  const existing = findSpec(tx, org.id, slug);
  if (existing) return { spec: restart(tx, ctx, existing, source, ctx.clock.now().toISOString()), member, created: false };
  return { spec: insertSpec(tx, ctx, org, slug, source, caller), member, created: true };
}

export function setVisibility(tx: WriteTx, ctx: Context, organizationId: string, caller: Caller, slug: string, visibility: SpecVisibility) {
  const { org, member } = requireEditor(tx, organizationId, caller, 'changing the visibility of an OpenAPI spec');
  const spec = findSpec(tx, org.id, slug);
  if (!spec) throw notFound(`openapi spec ${slug} not found in organization ${organizationId}`);
  // Setting the value it already has changes nothing, not even updatedAt.
  if (spec.visibility === visibility) return { spec, member };
  return { spec: tx.put(OpenapiSpecs, { ...spec, visibility, updatedAt: ctx.clock.now().toISOString() }), member };
}

/** Removes the spec, its pending source and its versions; returns the id (files go after). */
export function deleteSpec(tx: WriteTx, organizationId: string, caller: Caller, slug: string): string | undefined {
  const { org } = requireEditor(tx, organizationId, caller, 'deleting an OpenAPI spec');
  const spec = findSpec(tx, org.id, slug);
  if (!spec) return undefined;
  for (const v of tx.find(OpenapiVersions, 'spec', spec.id)) tx.delete(OpenapiVersions, v.id);
  tx.delete(OpenapiSources, spec.id);
  tx.delete(OpenapiSpecs, spec.id);
  return spec.id;
}
