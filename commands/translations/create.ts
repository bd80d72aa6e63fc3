import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../_lib/operation-command.js';
import { instructionsFlag } from '../_lib/markdown-flag.js';

export default operationCommand({
  operationId: 'createTranslation',
  description: 'Create a translation of a space into another language (then: docs translations run)',
  examples: [
    '<%= config.bin %> translations create --space NSPZKB05PsqSYftN6Sbf --from en --language fr',
    '<%= config.bin %> translations create --space NSPZKB05PsqSYftN6Sbf --from en --language de --instructions style.md --json',
  ],
  flags: {
    space: Flags.string({ description: 'Source space id (or source.space in --input)' }),
    from: Flags.string({ description: 'Language of the source space, e.g. en (or source.language in --input)' }),
    source: Flags.string({ hidden: true, description: 'source (JSON)', parse: async (v) => JSON.parse(v) }),
    instructions: instructionsFlag(),
  },
  // --space and --from build the body's `source` ({space, language}).
  prepare: (req, flags) => {
    if (flags.space === undefined && flags.from === undefined) return;
    const source = { ...req.body?.source, ...(flags.space ? { space: flags.space } : {}), ...(flags.from ? { language: flags.from } : {}) };
    req.body = { ...req.body, source };
  },
  orgFlag: true,
});
