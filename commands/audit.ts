import * as Flags from '@oclif/core/flags';
import { DocsError } from '../src/kernel/errors.js';
import { operationCommand } from './_lib/operation-command.js';

// `docs audit`: the organization's audit log, newest first (docs/manual/audit.md).

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** `--since 7d` (m, h, d, w) or a date (2026-01-31, 2026-01-31T12:00:00Z): the time it names. */
export function sinceTime(since: string, now = Date.now()): string {
  const rel = /^(\d{1,6})([mhdw])$/.exec(since);
  if (rel) return new Date(now - Number(rel[1]) * UNITS[rel[2]!]!).toISOString();
  const t = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(since) ? Date.parse(since) : NaN;
  if (!Number.isFinite(t))
    throw new DocsError(
      'invalid',
      `--since: ${JSON.stringify(since)} is neither a duration (30m, 12h, 7d, 2w) nor a date (2026-01-31 or 2026-01-31T12:00:00Z)`,
    );
  return new Date(t).toISOString();
}

export default operationCommand({
  operationId: 'listOrganizationAuditEvents',
  description: "List the organization's audit events, newest first: who changed what, when (admins only)",
  examples: [
    '<%= config.bin %> audit',
    '<%= config.bin %> audit --action space.created --since 7d',
    '<%= config.bin %> audit --actor usr4kT0x8bYq2mWvL1aZ --since 2026-01-31 --json',
  ],
  orgFlag: true,
  columns: ['occurredAt', 'action', 'actor.label', 'actor.id', 'target.type', 'target.id', 'id'],
  flags: {
    action: Flags.string({ description: 'Only events of this action (exact: space.created; docs audit actions lists them)' }),
    actor: Flags.string({ description: 'Only events made by this actor (its id: a user id, or an installation id)' }),
    target: Flags.string({ description: 'Only events about this target (its id: a space, comment, site...)' }),
    from: Flags.string({ description: 'Only events at or after this date-time (2026-01-31T00:00:00Z)' }),
    to: Flags.string({ description: 'Only events at or before this date-time (2026-01-31T23:59:59Z)' }),
    since: Flags.string({ description: 'Only events at or after this: a duration back from now (30m, 12h, 7d, 2w) or a date (sets --from)' }),
  },
  prepare: (req, flags) => {
    if (flags.since === undefined) return;
    if (req.query.from !== undefined) throw new DocsError('invalid', '--since and --from both say where the list starts: give one');
    req.query.from = sinceTime(String(flags.since));
  },
});
