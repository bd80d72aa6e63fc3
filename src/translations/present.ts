import type { Schema } from '../contract/types.js';
import { apiUrl, type Context } from '../kernel/context.js';
import { atLeast, type MemberRole } from '../kernel/roles.js';
import type { TranslationRecord } from './model.js';

/** The contract's Translation, plus `error` when the latest run failed (an extension, docs/manual/translations.md). */
export function presentTranslation(ctx: Context, t: TranslationRecord, role: MemberRole): Schema<'Translation'> {
  return {
    object: 'translation' as const,
    id: t.id,
    status: t.status,
    source: t.source as Schema<'Translation'>['source'],
    // Stored as validated on input (the contract's language codes, its Document).
    language: t.language as Schema<'Translation'>['language'],
    instructions: t.instructions as Schema<'Translation'>['instructions'],
    // A result stored before its language was kept is in the translation's language (the only
    // language its runs write into: an update cannot change it).
    ...(t.result ? { result: { ...t.result, language: (t.result.language ?? t.language) as Schema<'Translation'>['language'] } } : {}),
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    stats: t.stats,
    ...(t.error ? { error: t.error } : {}),
    permissions: { view: true, edit: atLeast(role, 'create') },
    urls: { location: apiUrl(ctx, `/orgs/${t.organization}/translations/${t.id}`) },
  };
}
