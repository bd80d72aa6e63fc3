import { defineOperation } from '../kernel/operation.js';
import type { Caller, Context } from '../kernel/context.js';
import { DocsError, invalid } from '../kernel/errors.js';
import { requireContentEdit } from '../spaces/service.js';
import { loadParser } from '../content/link-refs.js';
import { currentRevision, treeOf } from '../content/revisions.js';
import { mergeChangeRequest } from '../change-requests/service.js';
import { readLayout, type Layout } from '../imports/layout.js';
import type { UploadedFile } from '../content/authoring.js';
import type { Parse } from '../content/link-refs.js';
import type { WriteTx } from '../store/port.js';
import { storeAssets, writePages } from '../imports/service.js';
import { publish, readCommitFiles, resolveRemote, workRepo, writeCommitOf } from './repo.js';
import { errorMessage, fullRef, readSnapshot, readSync, recordSync, snapshotFiles } from './service.js';
import type { GitSyncRecord } from './model.js';
import { Spaces } from '../spaces/tables.js';

// Git import and export, and a space's last sync (docs/manual/imports-and-git.md#git). Both run
// while the request waits (the 204 says it is done, or the error says why not) and are recorded
// as the space's last sync either way.

type Body = {
  url: string;
  ref: string;
  commitMessage?: string;
  repoProjectDirectory?: string;
  force?: boolean;
  standalone?: boolean;
  gitInfo?: { provider?: 'github' | 'gitlab'; url?: string };
};

const dirOf = (d: string | undefined) => {
  const dir = (d ?? '').replace(/^\/+|\/+$/g, '');
  if (dir.split('/').some((s) => s === '..')) throw invalid(`repoProjectDirectory: ${d} leaves the repository`);
  return dir;
};

async function recorded(
  ctx: Context,
  spaceId: string,
  base: Omit<GitSyncRecord, 'id' | 'space' | 'updatedAt' | 'state' | 'startedAt'>,
  fn: () => Promise<Partial<GitSyncRecord>>,
) {
  const startedAt = ctx.clock.now().toISOString();
  await ctx.store.write((tx) => recordSync(tx, ctx, spaceId, { ...base, state: 'running', startedAt }));
  try {
    const extra = await fn();
    await ctx.store.write((tx) =>
      recordSync(tx, ctx, spaceId, { ...base, ...extra, state: extra.error ? 'failure' : 'success', startedAt, endedAt: ctx.clock.now().toISOString() }),
    );
  } catch (err) {
    const error = errorMessage(err);
    await ctx.store.write((tx) => recordSync(tx, ctx, spaceId, { ...base, state: 'failure', startedAt, endedAt: ctx.clock.now().toISOString(), error }));
    throw err instanceof DocsError ? err : invalid(`url: ${base.url}: ${error}`);
  }
}

const baseOf = (remote: { shown: string }, ref: string, direction: 'import' | 'export', body: Body) => ({
  url: remote.shown,
  ref,
  direction,
  ...(body.gitInfo?.provider ? { provider: body.gitInfo.provider } : {}),
  ...(body.gitInfo?.url ? { treeUrl: body.gitInfo.url } : {}),
});

export const importGitRepository = defineOperation('importGitRepository', async ({ ctx, caller, path, body }) => {
  const b = body as Body;
  const spaceId = path.spaceId as string;
  await ctx.store.read((tx) => requireContentEdit(tx, caller, spaceId));
  const ref = fullRef(b.ref);
  const dir = dirOf(b.repoProjectDirectory);
  const remote = await resolveRemote(b.url);
  await recorded(ctx, spaceId, baseOf(remote, ref, 'import', b), async () => {
    const repo = await workRepo(remote, ref, { fetch: true });
    try {
      if (!repo.remoteOid) throw invalid(`ref: ${remote.shown} has no ${ref}`);
      const oid = repo.remoteOid;
      const files = await readCommitFiles(repo.gitdir, oid, dir);
      const parse = await loadParser();
      const layout = readLayout(files, parse);
      const uploads = await storeAssets(ctx, layout.assets);
      return await ctx.store.write((tx) =>
        importInto(tx, ctx, caller, spaceId, layout, uploads, parse, `Import from ${remote.shown} (${ref} at ${oid.slice(0, 7)})`, !!b.standalone, oid),
      );
    } finally {
      await repo.done();
    }
  });
  return { status: 204 };
});

/** The commit's pages replace the space's in a change request, merged unless `standalone`. */
function importInto(
  tx: WriteTx,
  ctx: Context,
  caller: Caller,
  spaceId: string,
  layout: Layout,
  uploads: UploadedFile[],
  parse: Parse,
  subject: string,
  standalone: boolean,
  oid: string,
): Partial<GitSyncRecord> {
  const space = tx.get(Spaces, spaceId)!;
  const deletes = treeOf(tx, currentRevision(tx, space)).map((n: any) => ({ operation: 'delete_page', page: n.id }));
  const { cr } = writePages(tx, ctx, caller, spaceId, undefined, subject.slice(0, 100), layout, null, uploads, parse, deletes);
  if (standalone) return { commit: oid, changeRequest: cr.id };
  try {
    const merged = mergeChangeRequest(tx, ctx, caller, spaceId, cr.id);
    if (merged.result !== 'merge')
      return { commit: oid, changeRequest: cr.id, error: `the import's change request ${cr.id} conflicts with the space: merge it by hand` };
  } catch (err) {
    return { commit: oid, changeRequest: cr.id, error: `the import's change request ${cr.id} was not merged: ${errorMessage(err)}` };
  }
  return { commit: oid };
}

export const exportToGitRepository = defineOperation('exportToGitRepository', async ({ ctx, caller, path, body }) => {
  const b = body as Body;
  const spaceId = path.spaceId as string;
  const snap = await ctx.store.read((tx) => readSnapshot(tx, caller, spaceId));
  const ref = fullRef(b.ref);
  const dir = dirOf(b.repoProjectDirectory);
  const message = (b.commitMessage ?? '').trim();
  if (!message) throw invalid('commitMessage: required, a commit needs a message');
  const remote = await resolveRemote(b.url);
  await recorded(ctx, spaceId, baseOf(remote, ref, 'export', b), async () => {
    const repo = await workRepo(remote, ref, { fetch: true });
    try {
      const files = await snapshotFiles(ctx, snap, await loadParser());
      const oid = await writeCommitOf(repo.gitdir, files, repo.remoteOid, message, snap.author, dir);
      await publish(remote, repo.gitdir, ref, oid, !!b.force);
      return { commit: oid };
    } finally {
      await repo.done();
    }
  });
  return { status: 204 };
});

export const getSpaceGitInfo = defineOperation('getSpaceGitInfo', async ({ ctx, caller, path }) => {
  const r = await ctx.store.read((tx) => readSync(tx, caller, path.spaceId as string));
  return { status: 200, body: presentGitSync(r) };
});

/**
 * The contract's GitSyncState. 0.202.0 requires an installation (id, provider, status): a sync
 * here has none, so the installation is the space's own (its id), `active`, and the provider the
 * one gitInfo named, else `github` (the spec has no value for a plain Git server).
 */
function presentGitSync(r: GitSyncRecord) {
  const name = r.url
    .replace(/\/+$/, '')
    .replace(/\.git$/, '')
    .split(/[/:]/)
    .slice(-2)
    .join('/');
  return {
    repoName: name,
    installationId: r.space,
    installationProvider: r.provider ?? ('github' as const),
    installationStatus: 'active' as const,
    url: r.treeUrl ?? r.url,
    operation: {
      state: r.state,
      direction: r.direction,
      startedAt: r.startedAt,
      ...(r.endedAt ? { endedAt: r.endedAt } : {}),
      ...(r.error ? { error: r.error } : {}),
    },
    updatedAt: r.updatedAt,
    // Extensions: the ref and the commit of the last sync, the change request an import left.
    ref: r.ref,
    ...(r.commit ? { commit: r.commit } : {}),
    ...(r.changeRequest ? { changeRequest: r.changeRequest } : {}),
  };
}
