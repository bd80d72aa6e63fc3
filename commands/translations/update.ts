import { operationCommand } from '../_lib/operation-command.js';
import { instructionsFlag } from '../_lib/markdown-flag.js';

export default operationCommand({
  operationId: 'updateTranslation',
  description: "Replace a translation's instructions with a markdown file",
  examples: ['<%= config.bin %> translations update Tr4nsL8tI0nxYz123456 --instructions style.md'],
  flags: { instructions: instructionsFlag() },
  orgFlag: true,
});
