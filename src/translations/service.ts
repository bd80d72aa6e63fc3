import type { Caller, Context } from '../kernel/context.js';
import { conflict, DocsError, invalid, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { MemberRecord } from '../organizations/model.js';
import { membershipOf, requireOrgRole } from '../organizations/service.js';
import { visibleSpace } from '../spaces/service.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { EMPTY_DOCUMENT, NO_STATS, type TranslationRecord } from './model.js';
import { Translations } from './tables.js';

// Rights (docs/manual/translations.md): every member but guests reads translations; the `create` role
// and up creates, changes, deletes and runs them (a run creates a space, as `create` may).

export function readerOf(tx: ReadTx, organizationId: string, caller: Caller): MemberRecord {
  const { member } = membershipOf(tx, organizationId, caller);
  requireOrgRole(member, 'read', 'reading translations');
  return member;
}

function editorOf(tx: ReadTx, organizationId: string, caller: Caller, action: string): MemberRecord {
  const { member } = membershipOf(tx, organizationId, caller);
  requireOrgRole(member, 'create', action);
  return member;
}

function find(tx: ReadTx, organizationId: string, id: string): TranslationRecord {
  const t = tx.get(Translations, id);
  if (!t || t.organization !== organizationId) throw notFound(`translation ${id} not found`);
  return t;
}

export function listTranslations(tx: ReadTx, organizationId: string, caller: Caller) {
  const member = readerOf(tx, organizationId, caller);
  const list = tx.find(Translations, 'organization', organizationId).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  return { list, member };
}

export function getTranslation(tx: ReadTx, organizationId: string, caller: Caller, id: string) {
  const member = readerOf(tx, organizationId, caller);
  return { t: find(tx, organizationId, id), member };
}

export interface NewTranslation {
  source: { space: string; language: string };
  language: string;
  instructions?: unknown;
}

export function createTranslation(tx: WriteTx, ctx: Context, organizationId: string, caller: Caller, body: NewTranslation) {
  const member = editorOf(tx, organizationId, caller, 'creating a translation');
  let space;
  try {
    space = visibleSpace(tx, caller, body.source.space).row;
  } catch (err) {
    if (err instanceof DocsError && err.kind === 'not_found') space = undefined;
    else throw err;
  }
  if (!space || space.organization !== organizationId) throw invalid(`source.space: no space ${body.source.space} in this organization`);
  if (space.language && space.language !== body.source.language) {
    throw invalid(`source.language: space ${space.id} is in ${space.language}, not ${body.source.language}`);
  }
  if (body.language === body.source.language) throw invalid(`language: must differ from source.language (${body.source.language})`);
  const taken = tx.find(Translations, 'organization', organizationId).find((t) => t.source.space === space.id && t.language === body.language);
  if (taken) throw conflict(`language: space ${space.id} already has a translation to ${body.language} (${taken.id})`);
  const now = ctx.clock.now().toISOString();
  const t = tx.put(Translations, {
    id: newId(),
    organization: organizationId,
    source: { space: space.id, language: body.source.language },
    language: body.language,
    instructions: body.instructions ?? EMPTY_DOCUMENT,
    status: 'pending',
    queue: 'idle',
    generation: 0,
    stats: NO_STATS,
    pages: [],
    createdAt: now,
    updatedAt: now,
    createdBy: caller.userId,
  });
  return { t, member };
}

export function updateInstructions(tx: WriteTx, ctx: Context, organizationId: string, caller: Caller, id: string, instructions: unknown) {
  const member = editorOf(tx, organizationId, caller, 'changing a translation');
  const t = find(tx, organizationId, id);
  return { t: tx.put(Translations, { ...t, instructions, updatedAt: ctx.clock.now().toISOString() }), member };
}

/** True when there was one to delete. The target space stays: it is an ordinary space now. */
export function deleteTranslation(tx: WriteTx, organizationId: string, caller: Caller, id: string): boolean {
  editorOf(tx, organizationId, caller, 'deleting a translation');
  const t = tx.get(Translations, id);
  if (!t || t.organization !== organizationId) return false;
  return tx.delete(Translations, id);
}

/**
 * Asks for a run: back to `pending` with the last error cleared, queued for the runner. A run
 * asked for while one runs supersedes it (the running one's result is dropped).
 */
export function requestRun(tx: WriteTx, ctx: Context, organizationId: string, caller: Caller, id: string): TranslationRecord {
  editorOf(tx, organizationId, caller, 'running a translation');
  const t = find(tx, organizationId, id);
  const { error: _e, startedAt: _s, ...rest } = t;
  return tx.put(Translations, {
    ...rest,
    status: 'pending',
    queue: 'waiting',
    generation: t.generation + 1,
    requestedBy: caller.userId,
    updatedAt: ctx.clock.now().toISOString(),
  });
}
