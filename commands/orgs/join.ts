import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'joinOrganization',
  description: 'Join an organization that allows your email domain',
  done: 'Joined.',
  examples: ['<%= config.bin %> orgs join r55bjk0VeuQGpJpb7mcG'],
});
