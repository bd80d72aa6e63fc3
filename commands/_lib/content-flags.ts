import * as Flags from '@oclif/core/flags';
import { ROLES } from '../../src/kernel/roles.js';

// Flags shared by the collections and spaces commands, where the contract's shapes (a JSON
// `position`, a `defaultLevel` that may be null) are awkward to type on a command line.

/** `--default-level`: a role, `inherit`, or `none` (sent as null: no default access). */
export const defaultLevelFlag = Flags.string({
  description: 'Level members get by default: a role, inherit (from the parent), or none',
  options: [...ROLES, 'inherit', 'none'],
});

/** Turns `none` into the contract's null. */
export function applyDefaultLevel(req: { body: any }) {
  if (req.body?.defaultLevel === 'none') req.body.defaultLevel = null;
}

/** `--before ID`, `--after ID` (a sibling of the same kind) and `--root`. */
export function positionFlags(kind: 'space' | 'collection') {
  return {
    before: Flags.string({ description: `Place it before this ${kind} (id)`, exclusive: ['after'] }),
    after: Flags.string({ description: `Place it after this ${kind} (id)`, exclusive: ['before'] }),
    root: Flags.boolean({ description: "Move it to the organization's root", exclusive: ['parent'] }),
  };
}

/** Builds the body's `position` and `parent: null` from those flags. */
export function applyPosition(kind: 'space' | 'collection') {
  return (req: { body: any }, flags: Record<string, any>) => {
    const body = { ...(req.body ?? {}) };
    const id = flags.before ?? flags.after;
    if (id) body.position = { [flags.before ? 'before' : 'after']: { type: kind, [kind]: id } };
    if (flags.root) body.parent = null;
    req.body = body;
  };
}
