import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { DocsCommand } from '../_lib/base.js';
import { DocsError } from '../../src/kernel/errors.js';

export default class Dev extends DocsCommand {
  static operations = ['setIntegrationDevelopmentMode', 'disableIntegrationDevelopmentMode'];
  static summary = 'Turn development mode on (events POSTed to your tunnel) or off';
  static description = `API: PUT /v1/integrations/{integrationName}/dev (setIntegrationDevelopmentMode); with --off, DELETE (disableIntegrationDevelopmentMode).
While on, each event of the integration is POSTed as JSON to the tunnel URL (3 attempts at most); the outcome is in its trace (docs integrations event NAME ID).`;
  static examples = [
    '<%= config.bin %> integrations dev slack --tunnel http://127.0.0.1:8787/events',
    '<%= config.bin %> integrations dev slack --tunnel https://abc123.ngrok.app --all',
    '<%= config.bin %> integrations dev slack --off',
  ];
  static args = { integrationName: Args.string({ description: 'The integration (its name, e.g. my-integration)', required: true }) };
  static flags = {
    tunnel: Flags.string({ description: 'http(s) URL events are POSTed to' }),
    all: Flags.boolean({ description: "Forward every organization's events, not only the owning organization's" }),
    off: Flags.boolean({ description: 'Turn development mode off' }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(Dev);
    if (flags.off === (flags.tunnel !== undefined)) throw new DocsError('invalid', 'tunnel: give either --tunnel URL or --off');
    if (flags.off && flags.all) throw new DocsError('invalid', 'all: only with --tunnel');
    const transport = await this.transport(flags);
    const path = { integrationName: args.integrationName };
    if (flags.off) {
      await transport.call('disableIntegrationDevelopmentMode', { path });
      if (!this.jsonEnabled()) this.log(`Development mode of ${args.integrationName} is off.`);
      return { integration: args.integrationName, dev: null };
    }
    const body = { tunnelUrl: flags.tunnel!, all: flags.all };
    await transport.call('setIntegrationDevelopmentMode', { path, body });
    if (!this.jsonEnabled())
      this.log(`Development mode of ${args.integrationName} is on: events go to ${flags.tunnel}${flags.all ? ' (all organizations)' : ''}.`);
    return { integration: args.integrationName, dev: body };
  }
}
