import { apiUrl, type Caller, type Context } from '../kernel/context.js';
import { invalid, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { membershipOf, requireOrgRole } from '../organizations/service.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import type { GlossaryEntryRecord } from './model.js';
import { GlossaryEntries } from './tables.js';

// The organization's translation glossary (docs/manual/translations.md#glossary): entries that
// each give one term in several languages. A translation run from language A to B keeps every
// term of an entry with both A and B out of the translator's hands and writes the entry's B term
// in its place, so product names and agreed words come out as agreed.

/** At most this many entries per organization, and operations per call. */
export const MAX_ENTRIES = 5000;
export const MAX_OPERATIONS = 500;

const key = (code: string) => code.toLowerCase();

export function glossaryOf(tx: ReadTx, organizationId: string): GlossaryEntryRecord[] {
  return tx.find(GlossaryEntries, 'organization', organizationId).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

export function listEntries(tx: ReadTx, organizationId: string, caller: Caller): GlossaryEntryRecord[] {
  const { member } = membershipOf(tx, organizationId, caller);
  requireOrgRole(member, 'read', 'reading the translation glossary');
  return glossaryOf(tx, organizationId);
}

export function getEntry(tx: ReadTx, organizationId: string, caller: Caller, id: string): GlossaryEntryRecord {
  const { member } = membershipOf(tx, organizationId, caller);
  requireOrgRole(member, 'read', 'reading the translation glossary');
  const e = tx.get(GlossaryEntries, id);
  if (!e || e.organization !== organizationId) throw notFound(`glossary entry ${id} not found`);
  return e;
}

type Operation =
  | { type: 'insert'; translations: Record<string, string> }
  | { type: 'update'; id: string; translations: Record<string, string> }
  | { type: 'delete'; id: string };

function checkTranslations(t: Record<string, string>, at: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [code, term] of Object.entries(t)) {
    if (!/^[a-z]{2,3}([_-][a-z0-9]{2,8})*$/i.test(code)) throw invalid(`${at}.translations.${code}: not a language code (e.g. en, fr, pt-br)`);
    if (out[key(code)] !== undefined) throw invalid(`${at}.translations.${code}: the language is given twice`);
    if (!term.trim()) throw invalid(`${at}.translations.${code}: the term is blank`);
    out[key(code)] = term.trim();
  }
  if (Object.keys(out).length === 0) throw invalid(`${at}.translations: at least one language is required`);
  return out;
}

/** Applies the operations in order, all or none (400 naming the operation otherwise). */
export function updateEntries(tx: WriteTx, ctx: Context, organizationId: string, caller: Caller, ops: Operation[]): void {
  const { member } = membershipOf(tx, organizationId, caller);
  requireOrgRole(member, 'create', 'changing the translation glossary');
  if (ops.length > MAX_OPERATIONS) throw invalid(`operations: at most ${MAX_OPERATIONS} in one call (got ${ops.length})`);
  const now = ctx.clock.now().toISOString();
  ops.forEach((op, i) => {
    const at = `operations[${i}]`;
    if (op.type === 'insert') {
      tx.put(GlossaryEntries, {
        id: newId(),
        organization: organizationId,
        translations: checkTranslations(op.translations, at),
        createdAt: now,
        updatedAt: now,
      });
      return;
    }
    const e = tx.get(GlossaryEntries, op.id);
    if (!e || e.organization !== organizationId) throw invalid(`${at}.id: no glossary entry ${op.id} in this organization`);
    if (op.type === 'delete') tx.delete(GlossaryEntries, e.id);
    else tx.put(GlossaryEntries, { ...e, translations: checkTranslations(op.translations, at), updatedAt: now });
  });
  if (tx.find(GlossaryEntries, 'organization', organizationId).length > MAX_ENTRIES)
    throw invalid(`operations: a glossary holds at most ${MAX_ENTRIES} entries`);
}

export function presentEntry(ctx: Context, e: GlossaryEntryRecord) {
  return {
    object: 'glossary-entry' as const,
    id: e.id,
    translations: e.translations,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
    urls: { location: apiUrl(ctx, `/orgs/${e.organization}/translations-glossary/${e.id}`) },
  };
}

/** The (source term, target term) pairs of the entries that have both languages, longest source first. */
export function termsFor(entries: readonly GlossaryEntryRecord[], from: string, to: string): [string, string][] {
  const pairs: [string, string][] = [];
  for (const e of entries) {
    const a = e.translations[key(from)];
    const b = e.translations[key(to)];
    if (a && b) pairs.push([a, b]);
  }
  return pairs.sort((x, y) => y[0].length - x[0].length || x[0].localeCompare(y[0]));
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A term as a whole word (or words), in any case. */
const wordRe = (term: string) => new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRe(term)}(?![\\p{L}\\p{N}_])`, 'giu');
/** The placeholder a term travels as: no letters a translator would translate. */
const mark = (i: number) => `⟦${i}⟧`;

/**
 * The texts with each glossary term replaced by a placeholder, and the function that puts the
 * target terms in the translated texts. A placeholder the translator dropped drops its term.
 */
export function protectTerms(texts: string[], pairs: [string, string][]): { texts: string[]; restore: (out: string[]) => string[] } {
  if (pairs.length === 0) return { texts, restore: (out) => out };
  const protectedTexts = texts.map((t) => {
    let s = t;
    pairs.forEach(([from], i) => {
      s = s.replace(wordRe(from), mark(i));
    });
    return s;
  });
  return {
    texts: protectedTexts,
    restore: (out) => out.map((t) => t.replace(/⟦(\d+)⟧/g, (m, n) => pairs[Number(n)]?.[1] ?? m)),
  };
}
