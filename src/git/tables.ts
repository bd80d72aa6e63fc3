import { table } from '../store/port.js';
import type { GitSyncInstallationRecord, GitSyncRecord } from './model.js';

// The tables this area owns (see Table in src/store/port.ts): a space's last Git sync, kept with
// the space (its id is the space's); Git Sync installations, in their organization's shard, one
// per target (`key`), found by site and parent.
export const GitSync = table<GitSyncRecord, 'space'>('gitSync');
export const GitSyncInstallations = table<GitSyncInstallationRecord, 'key' | 'site' | 'parent' | 'organization'>('gitSyncInstallations');
