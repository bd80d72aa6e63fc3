import * as Args from '@oclif/core/args';
import { DocsCommand } from '../_lib/base.js';
import { orgFlag, organizationOf } from '../_lib/org.js';

export default class Raw extends DocsCommand {
  static operations = ['getLatestOpenAPISpecVersionContentRaw'];
  static summary = "Print the latest version's entrypoint exactly as it was submitted (JSON or YAML)";
  static description =
    'API: GET /v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content/raw (getLatestOpenAPISpecVersionContentRaw). Prints the text as it was given or fetched, byte for byte; --json prints {text, format}.';
  static examples = ['<%= config.bin %> openapi raw petstore > petstore.yaml', '<%= config.bin %> openapi raw petstore --jq .format'];
  static args = { specSlug: Args.string({ description: 'slug of the spec', required: true }) };
  static flags = { org: orgFlag() };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(Raw);
    const transport = await this.transport(flags);
    const organizationId = await organizationOf(flags, transport);
    const { body } = await transport.call('getLatestOpenAPISpecVersionContentRaw', { path: { organizationId, specSlug: args.specSlug } });
    const raw = body as { text: string; format: 'json' | 'yaml' };
    if (!this.jsonEnabled()) process.stdout.write(raw.text);
    return raw;
  }
}
