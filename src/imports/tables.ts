import { table } from '../store/port.js';
import type { ImportRunRecord } from './model.js';

// The tables this area owns (see Table in src/store/port.ts). Import runs live in their
// organization's shard.
export const ImportRuns = table<ImportRunRecord, 'organization' | 'queue'>('importRuns');
