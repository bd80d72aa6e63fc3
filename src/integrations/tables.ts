import { table } from '../store/port.js';
import type { EventRecord, InstallationRecord, IntegrationRecord } from './model.js';

// The tables this area owns (see Table in src/store/port.ts): another area reads these rows by
// importing a handle from here, an import the layering test checks. Integrations, their installations and events.
// The second type lists the fields `find` may query, as src/store/tables.ts indexes them.

export const Integrations = table<IntegrationRecord, 'name' | 'organization'>('integrations');
export const IntegrationInstallations = table<InstallationRecord, 'integration' | 'organization'>('integrationInstallations');
export const IntegrationEvents = table<EventRecord, 'integration' | 'delivery'>('integrationEvents');
