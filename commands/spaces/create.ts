import * as Flags from '@oclif/core/flags';
import { VISIBILITIES } from '../../src/spaces/model.js';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'createSpace',
  description: 'Create a space, at the root or in a collection',
  examples: [
    '<%= config.bin %> spaces create --title "API Reference"',
    '<%= config.bin %> spaces create --title Handbook --org 6yZr3RyMqly3HeMx6Xkr --parent szoY47EmGxQDFXEuua83 --emoji 📘',
    '<%= config.bin %> spaces create --title "Public docs" --visibility public --language fr --json',
  ],
  orgFlag: true,
  flags: {
    visibility: Flags.string({ description: 'Who can read it (in-collection only for a space in a collection)', options: [...VISIBILITIES] }),
    icon: Flags.string({ description: 'URL of an icon (instead of an emoji)' }),
  },
  prepare: (req, flags) => {
    if (flags.visibility !== undefined) req.body = { ...req.body, visibility: flags.visibility };
    if (flags.icon !== undefined) req.body = { ...req.body, icon: flags.icon };
  },
});
