import type { SpaceRecord } from './model.js';

/** A deleted space can be restored for 7 days (API.md "Limits"); then it is purged for good. */
export const RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** How often `docs serve` looks for deleted spaces past their retention. */
export const SWEEP_INTERVAL_MS = 60_000;

export const isExpired = (s: SpaceRecord, now: Date) => s.deletedAt !== undefined && now.getTime() - Date.parse(s.deletedAt) >= RETENTION_MS;

// Purging (spaces past their retention, on access and by the sweeper of `docs serve`) is
// src/space-purge.ts: it removes rows of areas above spaces/ too (sites).
