import * as Flags from '@oclif/core/flags';
import { compressToEncodedURIComponent } from '../../src/kernel/lz-string.js';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'renderIntegrationUIWithPost',
  operations: ['renderIntegrationUIWithGet'],
  description: "Render a ContentKit component of an integration (answered by the integration's development tunnel)",
  examples: [
    `<%= config.bin %> integrations render slack --component-id configure --props '{}' --context '{"type":"configuration_account","theme":"light","organizationId":"6yZr3RyMqly3HeMx6Xkr"}'`,
    `<%= config.bin %> integrations render slack --component-id configure --props '{}' --context '{"type":"configuration_account","theme":"light","organizationId":"6yZr3RyMqly3HeMx6Xkr"}' --get --json`,
  ],
  summary: false,
  flags: {
    get: Flags.boolean({ description: 'Send it as GET with the request LZ-string compressed (renderIntegrationUIWithGet), as cacheable renders are' }),
  },
  call: async (req, flags, transport) => {
    if (!flags.get) return undefined;
    const request = compressToEncodedURIComponent(JSON.stringify(req.body ?? {}));
    return transport.call('renderIntegrationUIWithGet', { path: req.path, query: { request } });
  },
});
