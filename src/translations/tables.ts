import { table } from '../store/port.js';
import type { GlossaryEntryRecord, TranslationRecord } from './model.js';

// The tables this area owns (see Table in src/store/port.ts): another area reads these rows by
// importing a handle from here, an import the layering test checks. Translation settings.
// The second type lists the fields `find` may query, as src/store/tables.ts indexes them.

export const Translations = table<TranslationRecord, 'organization' | 'queue'>('translations');
export const GlossaryEntries = table<GlossaryEntryRecord, 'organization'>('glossaryEntries');
