import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listOrganizationIntegrationsStatus',
  description: 'List the installations in an organization by target (organization, space or site) with their status',
  examples: [
    '<%= config.bin %> integrations statuses',
    '<%= config.bin %> integrations statuses --org 6yZr3RyMqly3HeMx6Xkr --target space --space Ab3dE5gH7jK9mN1pQ2rS --json',
  ],
  orgFlag: true,
  flags: {
    space: Flags.string({ description: 'Only the installations on this space (id; with --target space)' }),
    site: Flags.string({ description: 'Only the installations on this site (id; with --target site)' }),
  },
  columns: ['integration.name', 'status', 'target.type', 'target.spaceId', 'target.siteId'],
});
