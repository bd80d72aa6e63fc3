import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateGlossaryEntries',
  description: 'Change the translation glossary in one batch of insert, update and delete operations (all or none)',
  examples: [
    `<%= config.bin %> translations glossary update --operations '[{"type":"insert","translations":{"en":"docs site","fr":"site de documentation"}}]'`,
    `<%= config.bin %> translations glossary update --operations '[{"type":"delete","id":"kP3xQ9mZ2vL8nR5tW1yA"}]'`,
  ],
  orgFlag: true,
  done: 'Updated the glossary.',
});
