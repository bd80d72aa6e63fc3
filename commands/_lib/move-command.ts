import * as Flags from '@oclif/core/flags';
import { operationCommand } from './operation-command.js';

/**
 * The API's deprecated per-kind moves (moveSiteSpace, moveSiteSection, moveSiteSectionGroup;
 * `docs sites sort` is the newer form): --before or --after a sibling, to the end with neither.
 * `pointer` turns a sibling as given on the command line into the body's pointer.
 */
export function moveCommand(def: { operationId: string; what: string; examples: string[]; sibling: string; pointer: (v: string) => object }) {
  return operationCommand({
    operationId: def.operationId,
    description: `Move a ${def.what} before or after a sibling (to the end with neither)`,
    examples: def.examples,
    orgFlag: true,
    flags: {
      before: Flags.string({ description: `Put it before this sibling (${def.sibling})`, exclusive: ['after'] }),
      after: Flags.string({ description: `Put it after this sibling (${def.sibling})`, exclusive: ['before'] }),
    },
    prepare: (req, flags) => {
      req.body = {
        position: { ...(flags.before ? { before: def.pointer(flags.before) } : {}), ...(flags.after ? { after: def.pointer(flags.after) } : {}) },
      };
    },
  });
}
