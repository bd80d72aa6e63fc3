import { table } from '../store/port.js';
import type { GitSyncRecord } from './model.js';

// The tables this area owns (see Table in src/store/port.ts): a space's last Git sync, kept with
// the space (its id is the space's).
export const GitSync = table<GitSyncRecord, 'space'>('gitSync');
