import type { Caller, Context } from '../kernel/context.js';
import { conflict, invalid, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { Role } from '../kernel/roles.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { visibleSpace } from '../spaces/service.js';
import { requireLevel } from '../tree/access.js';
import { siteOf } from '../sites/access.js';
import { Sites, SiteSpaces } from '../sites/tables.js';
import type { GitSyncInstallationRecord } from './model.js';
import { GitSyncInstallations } from './tables.js';

// Git Sync installations (docs/manual/imports-and-git.md#git-sync-installations): the rules, on a
// transaction. Rights follow the target: seeing the target (read) shows its installation;
// installing, configuring, uninstalling and listing the repositories it may use need admin on it
// (a space's admin level; a site's admin role, or admin given on the site). A space installation
// managed by a site's (target `{type: space, spaceId, siteId}`) needs admin on both, and the
// space on the site. Any other id, or one the caller cannot see, is a 404.

type Target = { type: 'space'; spaceId: string; siteId?: string } | { type: 'site'; siteId: string };

const keyOf = (t: GitSyncInstallationRecord['target']) => (t.type === 'space' ? `space:${t.space}` : `site:${t.site}`);

/** A site, whatever its organization, with the caller's level on it checked (404 when unseen). */
function siteFor(tx: ReadTx, caller: Caller, siteId: string, need: Role, action: string) {
  const site = tx.get(Sites, siteId);
  if (!site) throw notFound(`site ${siteId} not found`);
  return siteOf(tx, caller, site.organization, siteId, need, action);
}

function spaceFor(tx: ReadTx, caller: Caller, spaceId: string, need: Role, action: string) {
  const seen = visibleSpace(tx, caller, spaceId);
  requireLevel(seen.level, need, action, `space ${spaceId}`);
  return seen.row;
}

/** The caller's right on an installation's target, checked. */
function requireOnTarget(tx: ReadTx, caller: Caller, r: GitSyncInstallationRecord, need: Role, action: string): void {
  if (r.target.type === 'site') siteFor(tx, caller, r.target.site, need, action);
  else spaceFor(tx, caller, r.target.space, need, action);
}

/** An installation the caller can see (read on its target), with `need` checked; 404 otherwise. */
export function visibleGitInstallation(tx: ReadTx, caller: Caller, id: string, need: Role = 'read', action = 'reading a Git Sync installation') {
  const r = tx.get(GitSyncInstallations, id);
  if (!r) throw notFound(`Git Sync installation ${id} not found`);
  try {
    requireOnTarget(tx, caller, r, 'read', 'reading a Git Sync installation');
  } catch (err) {
    if ((err as { kind?: string }).kind === 'forbidden') throw notFound(`Git Sync installation ${id} not found`);
    throw err;
  }
  if (need !== 'read') requireOnTarget(tx, caller, r, need, action);
  return r;
}

export function installGitSync(tx: WriteTx, ctx: Context, caller: Caller, provider: 'github' | 'gitlab', t: Target): GitSyncInstallationRecord {
  const action = 'installing Git Sync';
  let organization: string;
  let target: GitSyncInstallationRecord['target'];
  let parent: GitSyncInstallationRecord | undefined;
  if (t.type === 'site') {
    organization = siteFor(tx, caller, t.siteId, 'admin', action).site.organization;
    target = { type: 'site', site: t.siteId };
  } else {
    const space = spaceFor(tx, caller, t.spaceId, 'admin', action);
    organization = space.organization;
    target = { type: 'space', space: t.spaceId };
    if (t.siteId !== undefined) {
      const { site } = siteFor(tx, caller, t.siteId, 'admin', action);
      if (site.organization !== space.organization || !tx.find(SiteSpaces, 'site', site.id).some((ss) => ss.space === space.id))
        throw invalid(`target.spaceId: space ${space.id} is not on site ${site.id}`);
      parent = tx.find(GitSyncInstallations, 'key', `site:${site.id}`)[0];
      if (!parent) throw invalid(`target.siteId: site ${site.id} has no Git Sync installation to manage the space's (install one on the site first)`);
      target = { type: 'space', space: t.spaceId, site: site.id };
    }
  }
  const key = keyOf(target);
  const had = tx.find(GitSyncInstallations, 'key', key)[0];
  if (had)
    throw conflict(
      `target: ${target.type} ${target.type === 'site' ? target.site : target.space} already has a Git Sync installation (${had.id}): update it, or uninstall it first`,
    );
  const now = ctx.clock.now().toISOString();
  const r: GitSyncInstallationRecord = {
    id: newId(),
    organization,
    provider: parent ? parent.provider : provider,
    target,
    key,
    ...(target.site ? { site: target.site } : {}),
    ...(parent
      ? {
          parent: parent.id,
          ...(parent.repository ? { repository: parent.repository } : {}),
          ...(parent.branch ? { branch: parent.branch } : {}),
          ...(parent.priority ? { priority: parent.priority } : {}),
        }
      : {}),
    createdBy: caller.userId,
    createdAt: now,
    updatedAt: now,
  };
  if (parent && provider !== parent.provider)
    throw invalid(`provider: site installation ${parent.id} is ${parent.provider}; a space installation it manages has the same provider`);
  tx.put(GitSyncInstallations, r);
  return r;
}

export interface InstallationPatch {
  provider: 'github' | 'gitlab';
  repository?: string;
  branch?: string;
  projectDirectory?: string;
  commitMessageTemplate?: string;
  previewExternalBranches?: boolean;
  agentInstructions?: ('agents' | 'claude')[];
  priority?: 'git' | 'gitbook';
  children?: Record<string, string>;
}

/** The children of a site installation. */
export const childrenOf = (tx: ReadTx, id: string) => tx.find(GitSyncInstallations, 'parent', id);

/** Checks what a patch may change on this installation, before anything runs (400 naming the field). */
export function checkPatch(tx: ReadTx, r: GitSyncInstallationRecord, p: InstallationPatch): void {
  if (r.parent) {
    if (p.previewExternalBranches !== undefined)
      throw invalid(`previewExternalBranches: installation ${r.id} is managed by site installation ${r.parent}, which sets it`);
    if (p.agentInstructions !== undefined) throw invalid(`agentInstructions: installation ${r.id} is managed by site installation ${r.parent}, which sets it`);
    if (p.provider !== r.provider) throw invalid(`provider: installation ${r.id} is managed by site installation ${r.parent}, which is ${r.provider}`);
  }
  if (p.children) {
    if (r.target.type !== 'site')
      throw invalid(`childInstallationProjectDirectories: installation ${r.id} is on a space; only a site installation has children`);
    const mine = new Set(childrenOf(tx, r.id).map((c) => c.id));
    for (const id of Object.keys(p.children))
      if (!mine.has(id)) throw invalid(`childInstallationProjectDirectories: ${id} is not a space installation managed by ${r.id}`);
  }
}

export function applyPatch(tx: WriteTx, ctx: Context, r: GitSyncInstallationRecord, p: InstallationPatch): GitSyncInstallationRecord {
  const now = ctx.clock.now().toISOString();
  const next: GitSyncInstallationRecord = { ...r, provider: p.provider, updatedAt: now };
  for (const k of ['repository', 'branch', 'projectDirectory', 'commitMessageTemplate', 'previewExternalBranches', 'agentInstructions', 'priority'] as const)
    if (p[k] !== undefined) (next as any)[k] = p[k];
  tx.put(GitSyncInstallations, next);
  for (const c of childrenOf(tx, r.id)) {
    const dir = p.children?.[c.id];
    // A child follows its site installation's repository, branch, provider and priority.
    tx.put(GitSyncInstallations, {
      ...c,
      provider: next.provider,
      ...(next.repository ? { repository: next.repository } : {}),
      ...(next.branch ? { branch: next.branch } : {}),
      ...(next.priority ? { priority: next.priority } : {}),
      ...(dir !== undefined ? { projectDirectory: dir } : {}),
      updatedAt: now,
    });
  }
  return next;
}

/** Removes an installation and, for a site's, the space installations it manages. */
export function uninstall(tx: WriteTx, r: GitSyncInstallationRecord): void {
  for (const c of childrenOf(tx, r.id)) tx.delete(GitSyncInstallations, c.id);
  tx.delete(GitSyncInstallations, r.id);
}

/**
 * A site's installations: its own, the space installations it manages, and those installed
 * directly on the spaces it publishes (each only where the caller sees the space).
 */
export function siteInstallations(tx: ReadTx, caller: Caller, organizationId: string, siteId: string): GitSyncInstallationRecord[] {
  const { site } = siteOf(tx, caller, organizationId, siteId, 'read', 'listing the Git Sync installations of a site');
  const out = new Map<string, GitSyncInstallationRecord>();
  for (const r of tx.find(GitSyncInstallations, 'site', site.id)) out.set(r.id, r);
  for (const ss of tx.find(SiteSpaces, 'site', site.id)) for (const r of tx.find(GitSyncInstallations, 'key', `space:${ss.space}`)) out.set(r.id, r);
  const seen = (r: GitSyncInstallationRecord) => {
    if (r.target.type === 'site') return true;
    try {
      visibleSpace(tx, caller, r.target.space);
      return true;
    } catch {
      return false;
    }
  };
  return [...out.values()].filter(seen).sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1));
}

/** Removes the installations of a space purged for good (src/space-purge.ts). */
export function removeSpaceInstallations(tx: WriteTx, spaceId: string): void {
  for (const r of tx.find(GitSyncInstallations, 'key', `space:${spaceId}`)) tx.delete(GitSyncInstallations, r.id);
}

/** Removes the installations of a deleted site: its own and those of its site spaces (src/site-deletion.ts). */
export function removeSiteInstallations(tx: WriteTx, siteId: string): void {
  for (const r of tx.find(GitSyncInstallations, 'site', siteId)) tx.delete(GitSyncInstallations, r.id);
}
