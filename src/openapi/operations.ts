import type { Caller, Context } from '../kernel/context.js';
import { DocsError, notFound } from '../kernel/errors.js';
import { defineOperation } from '../kernel/operation.js';
import { paginate } from '../kernel/pagination.js';
import { readContent, removeContent } from './content-files.js';
import { presentSpec, presentVersion, versionUrl } from './present.js';
import { kickProcessing } from './processor.js';
import { checkSlug, checkSource, createSpec, deleteSpec, listVisibleSpecs, setVisibility, upsertSpec, versionOf, versionsOf, visibleSpec } from './service.js';
import { OpenapiVersions } from './tables.js';

export const listOpenAPISpecs = defineOperation('listOpenAPISpecs', async ({ ctx, caller, path, query }) => {
  const { specs, member } = await ctx.store.read((tx) => listVisibleSpecs(tx, path.organizationId, caller));
  return { status: 200, body: paginate(specs, query, (s) => presentSpec(ctx, s, member.role)) };
});

export const createOpenAPISpec = defineOperation('createOpenAPISpec', async ({ ctx, caller, path, body }) => {
  const source = checkSource(body.source);
  const { spec, member } = await ctx.store.write((tx) => createSpec(tx, ctx, path.organizationId, caller, body.slug, source));
  kickProcessing(ctx);
  return { status: 201, body: presentSpec(ctx, spec, member.role) };
});

export const getOpenAPISpecBySlug = defineOperation('getOpenAPISpecBySlug', async ({ ctx, caller, path }) => {
  const { spec, member } = await ctx.store.read((tx) => visibleSpec(tx, path.organizationId, path.specSlug, caller));
  return { status: 200, body: presentSpec(ctx, spec, member.role) };
});

export const createOrUpdateOpenAPISpecBySlug = defineOperation('createOrUpdateOpenAPISpecBySlug', async ({ ctx, caller, path, body }) => {
  checkSlug(path.specSlug);
  const source = checkSource(body.source);
  const { spec, member, created } = await ctx.store.write((tx) => upsertSpec(tx, ctx, path.organizationId, caller, path.specSlug, source));
  kickProcessing(ctx);
  return { status: created ? 201 : 200, body: presentSpec(ctx, spec, member.role) };
});

export const deleteOpenAPISpecBySlug = defineOperation('deleteOpenAPISpecBySlug', async ({ ctx, caller, path }) => {
  const deleted = await ctx.store.write((tx) => deleteSpec(tx, path.organizationId, caller, path.specSlug));
  if (!deleted) return { status: 204 };
  await removeContent(ctx, deleted);
  return { status: 205 };
});

export const updateOpenAPISpecBySlug = defineOperation('updateOpenAPISpecBySlug', async ({ ctx, caller, path, body }) => {
  const { spec, member } = await ctx.store.write((tx) => setVisibility(tx, ctx, path.organizationId, caller, path.specSlug, body.visibility));
  return { status: 200, body: presentSpec(ctx, spec, member.role) };
});

export const listOpenAPISpecVersions = defineOperation('listOpenAPISpecVersions', async ({ ctx, caller, path, query }) => {
  const { spec, versions } = await ctx.store.read((tx) => {
    const { spec } = visibleSpec(tx, path.organizationId, path.specSlug, caller);
    return { spec, versions: versionsOf(tx, spec.id) };
  });
  return { status: 200, body: paginate(versions, query, (v) => presentVersion(ctx, spec, v)) };
});

function oneVersion(ctx: Context, caller: Caller, path: Record<string, string>, versionId: string) {
  return ctx.store.read((tx) => {
    const { spec } = visibleSpec(tx, path.organizationId!, path.specSlug!, caller);
    return { spec, version: versionOf(tx, spec, versionId) };
  });
}

// `latest` can never be a version id (ids are 20 base62 characters): the by-id routes accept it
// too, so `versions/latest` means the same in-process as over HTTP, where the router picks the
// literal `latest` route first.
export const getLatestOpenAPISpecVersion = defineOperation('getLatestOpenAPISpecVersion', async ({ ctx, caller, path }) => {
  const { spec, version } = await oneVersion(ctx, caller, path, 'latest');
  return { status: 200, body: presentVersion(ctx, spec, version) };
});

export const getOpenAPISpecVersionById = defineOperation('getOpenAPISpecVersionById', async ({ ctx, caller, path }) => {
  const { spec, version } = await oneVersion(ctx, caller, path, path.versionId);
  return { status: 200, body: presentVersion(ctx, spec, version) };
});

async function content(ctx: Context, caller: Caller, path: Record<string, string>, versionId: string) {
  const { spec, version } = await oneVersion(ctx, caller, path, versionId);
  const json = await readContent(ctx, spec.id, version.id);
  if (json === undefined) {
    // The spec was deleted between the read and the file read: as if it had not been found.
    if (!(await ctx.store.read((tx) => tx.get(OpenapiVersions, version.id)))) throw notFound(`version ${versionId} of openapi spec ${path.specSlug} not found`);
    throw new DocsError('bug', `content of version ${version.id} is missing from the data directory`);
  }
  const url = versionUrl(ctx, spec, version);
  // 0.202.0's `urls`: `source`, where this version came from (its URL, or this route for a text
  // source); `public`, where those who are not editors read it: the same for a public spec, null
  // for a private one (docs/manual/contract.md).
  return { status: 200, body: { filesystem: JSON.parse(json), url, urls: { source: url, public: spec.visibility === 'public' ? url : null } } };
}

export const getLatestOpenAPISpecVersionContent = defineOperation('getLatestOpenAPISpecVersionContent', ({ ctx, caller, path }) =>
  content(ctx, caller, path, 'latest'),
);

export const getOpenAPISpecVersionContentById = defineOperation('getOpenAPISpecVersionContentById', ({ ctx, caller, path }) =>
  content(ctx, caller, path, path.versionId),
);

// The entrypoint's text exactly as it was submitted (given, or fetched from its URL) when the
// latest version was made; `format` says how to read it. A version made before the raw text was
// kept has none: 404, as the contract words it (docs/manual/openapi.md#the-raw-source).
export const getLatestOpenAPISpecVersionContentRaw = defineOperation('getLatestOpenAPISpecVersionContentRaw', async ({ ctx, caller, path }) => {
  const { spec, version } = await oneVersion(ctx, caller, path, 'latest');
  const text = version.rawFormat ? await readContent(ctx, spec.id, version.id, true) : undefined;
  if (!version.rawFormat || text === undefined)
    throw notFound(`the latest version of openapi spec ${path.specSlug} has no raw source (it was processed before raw sources were kept: put the spec again)`);
  return { status: 200, body: { text, format: version.rawFormat } };
});
