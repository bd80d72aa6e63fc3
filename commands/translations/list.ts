import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listTranslations',
  description: 'List the translations of an organization',
  examples: ['<%= config.bin %> translations list', '<%= config.bin %> translations list --org r55bjk0VeuQGpJpb7mcG --json'],
  columns: ['id', 'source.space', 'source.language', 'language', 'status', 'result.space', 'stats.runs', 'error.code', 'updatedAt'],
  orgFlag: true,
});
