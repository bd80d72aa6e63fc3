import { DocsError } from '../../src/kernel/errors.js';

// Shared by docs tokens create|list|revoke: the /_docs/tokens route, reached in-process or on the
// server through the transport (Transport.docs), and --expires read before anything is sent.

export const TOKENS_PATH = '/_docs/tokens';

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * --expires: a duration from now (30m, 12h, 90d, 2w) or a date / date-time (2027-01-31,
 * 2027-01-31T12:00:00Z). Exit 2 naming the flag for anything else or a time already past.
 */
export function expiresAt(value: string, now = Date.now()): string {
  const d = /^(\d+)\s*([mhdw])$/i.exec(value.trim());
  const t = d ? now + Number(d[1]) * UNITS[d[2]!.toLowerCase()]! : /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(t)) throw new DocsError('invalid', `--expires: ${JSON.stringify(value)} is neither a duration (30m, 12h, 90d, 2w) nor a date (2027-01-31)`);
  // A day the month does not have (2027-02-31) is refused, not rolled over into the next month.
  const ymd = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!d && ymd && new Date(Date.UTC(+ymd[1]!, +ymd[2]! - 1, +ymd[3]!)).toISOString().slice(0, 10) !== ymd[0])
    throw new DocsError('invalid', `--expires: ${ymd[0]} is not a date of the calendar`);
  if (d && Number(d[1]) === 0) throw new DocsError('invalid', '--expires: a duration must be more than 0');
  if (t <= now) throw new DocsError('invalid', `--expires: ${value} is in the past`);
  return new Date(t).toISOString();
}
