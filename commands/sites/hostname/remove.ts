import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'removeCustomHostname',
  description: 'Remove a custom hostname: its site no longer answers on it',
  examples: ['<%= config.bin %> sites hostname remove docs.example.com --yes'],
  confirm: (p) => `Remove ${p.hostname}? (its site stops answering on it)`,
  done: (_s, p) => `Removed ${p.hostname}.`,
  missing: (p) => `custom hostname ${p.hostname} not found: nothing removed`,
});
