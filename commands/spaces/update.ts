import * as Flags from '@oclif/core/flags';
import { applyDefaultLevel, defaultLevelFlag } from '../_lib/content-flags.js';
import { chooseSpace } from '../_lib/pick.js';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateSpaceById',
  description: "Change a space's title, emoji or icon, language, default level, edit mode or merge rules",
  examples: [
    '<%= config.bin %> spaces update dHD9ZmkOPnfy9hWCsaQB --title "API v2" --emoji 🚀',
    '<%= config.bin %> spaces update dHD9ZmkOPnfy9hWCsaQB --edit-mode locked',
    '<%= config.bin %> spaces update dHD9ZmkOPnfy9hWCsaQB --default-level none',
    `<%= config.bin %> spaces update dHD9ZmkOPnfy9hWCsaQB --merge-rules '{"type":"rules","rules":[{"rule":"require_at_least_one_review"}]}'`,
  ],
  choose: { spaceId: chooseSpace },
  flags: {
    'default-level': defaultLevelFlag,
    emoji: Flags.string({ description: 'Emoji of the space (replaces an icon)', exclusive: ['icon', 'remove-icon'] }),
    icon: Flags.string({ description: 'URL of an icon (replaces the emoji)', exclusive: ['emoji', 'remove-icon'] }),
    'remove-icon': Flags.boolean({ description: 'Remove the emoji or icon', exclusive: ['emoji', 'icon'] }),
  },
  prepare: (req, flags) => {
    applyDefaultLevel(req);
    if (flags.emoji !== undefined) req.body = { ...req.body, emoji: flags.emoji };
    if (flags.icon !== undefined) req.body = { ...req.body, icon: flags.icon };
    if (flags['remove-icon']) req.body = { ...req.body, emoji: null, icon: null };
  },
});
