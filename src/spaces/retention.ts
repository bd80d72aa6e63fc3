/** A deleted space can be restored for 7 days (API.md "Limits"); then it is purged for good. */
export const RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** How often `docs serve` looks for deleted spaces past their retention. */
export const SWEEP_INTERVAL_MS = 60_000;

// `deletedAt` null: a space as the organization's summary keeps it (src/tree/order.ts SpaceEntry).
export const isExpired = (s: { deletedAt?: string | null }, now: Date) => !!s.deletedAt && now.getTime() - Date.parse(s.deletedAt) >= RETENTION_MS;

// Purging (spaces past their retention, on access and by the sweeper of `docs serve`) is
// src/space-purge.ts: it removes rows of areas above spaces/ too (sites).
