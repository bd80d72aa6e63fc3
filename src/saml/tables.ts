import { table } from '../store/port.js';
import type { SamlProviderRecord } from './model.js';

// The tables this area owns (see Table in src/store/port.ts): another area reads these rows by
// importing a handle from here, an import the layering test checks. SAML providers of organizations.
// The second type lists the fields `find` may query, as src/store/tables.ts indexes them.

export const SamlProviders = table<SamlProviderRecord, 'organization'>('samlProviders');
