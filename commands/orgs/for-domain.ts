import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getOrganizationsForEmailDomain',
  description: 'The organizations users of an email domain may join (instance owners: any domain; others: the domain of their own verified address)',
  examples: ['<%= config.bin %> orgs for-domain acme.com', '<%= config.bin %> orgs for-domain acme.com --jq ".organizations[].title"'],
  columns: ['id', 'title', 'defaultRole'],
});
