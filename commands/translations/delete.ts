import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'deleteTranslation',
  description: 'Delete a translation (the space it wrote stays, as an ordinary space)',
  examples: ['<%= config.bin %> translations delete Tr4nsL8tI0nxYz123456', '<%= config.bin %> translations delete Tr4nsL8tI0nxYz123456 --yes'],
  confirm: (path) => `Delete translation ${path.translationId}? (its translated space is kept)`,
  done: (_s, p) => `Deleted translation ${p.translationId} (its translated space stays; not restorable).`,
  missing: (p) => `translation ${p.translationId} not found: nothing deleted`,
  orgFlag: true,
});
