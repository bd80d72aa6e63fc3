import { table } from '../store/port.js';
import type { OpenAPISourceRecord, OpenAPISpecRecord, OpenAPIVersionRecord } from './model.js';

// The tables this area owns (see Table in src/store/port.ts): another area reads these rows by
// importing a handle from here, an import the layering test checks. OpenAPI specs, their source text and versions.
// The second type lists the fields `find` may query, as src/store/tables.ts indexes them.

export const OpenapiSpecs = table<OpenAPISpecRecord, 'organization' | 'key' | 'processingState'>('openapiSpecs');
export const OpenapiSources = table<OpenAPISourceRecord>('openapiSources');
export const OpenapiVersions = table<OpenAPIVersionRecord, 'spec'>('openapiVersions');
