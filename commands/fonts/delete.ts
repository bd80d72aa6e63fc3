import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'deleteCustomFont',
  description: 'Delete a custom font (sites using it fall back to the system font)',
  examples: ['<%= config.bin %> fonts delete fnt4Vb8QmZp1LkS2xTc9 --yes'],
  orgFlag: true,
  confirm: (p) => `Delete font ${p.fontId}? (sites using it fall back to the system font)`,
  done: (_s, p) => `Deleted font ${p.fontId}.`,
  missing: (p) => `font ${p.fontId} not found: nothing deleted`,
});
