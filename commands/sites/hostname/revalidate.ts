import { checkHostname } from '../../../src/sites/hostnames.js';
import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'dnsRevalidateCustomHostname',
  description: "Check a custom hostname's DNS again (this machine's resolver): exit 0 when it resolves to this server",
  examples: ['<%= config.bin %> sites hostname revalidate docs.example.com'],
  prepare: (req) => {
    req.path.hostname = checkHostname(req.path.hostname!, 'HOSTNAME');
  },
  done: (_s, p) => `✓ ${p.hostname} resolves to this server: its site answers on it.`,
});
