import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getGlossaryEntry',
  description: 'Show one entry of the translation glossary',
  examples: ['<%= config.bin %> translations glossary get kP3xQ9mZ2vL8nR5tW1yA', '<%= config.bin %> translations glossary get kP3xQ9mZ2vL8nR5tW1yA --json'],
  orgFlag: true,
});
