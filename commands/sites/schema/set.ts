import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { readFileSync } from 'node:fs';
import { DocsError } from '../../../src/kernel/errors.js';
import { DocsCommand } from '../../_lib/base.js';
import { soleOrganization } from '../../_lib/operation-command.js';

export default class SitesSchemaSet extends DocsCommand {
  static summary = "Set a site's adaptive-content visitor schema (JSON Schema draft-07) from a file";
  static description = 'API: PUT /v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema (updateSiteAdaptiveSchema). The file holds the schema itself, or {"jsonSchema": ...}.';
  static examples = ['<%= config.bin %> sites schema set szK9Qp2mTtR4bLx0aVn1 visitor-schema.json', 'cat visitor-schema.json | <%= config.bin %> sites schema set szK9Qp2mTtR4bLx0aVn1 -'];
  static args = {
    siteId: Args.string({ description: 'siteId', required: true }),
    file: Args.string({ description: 'JSON file with the schema ("-" for stdin)', required: true }),
  };
  static flags = { org: Flags.string({ description: 'Organization id (default: $DOCS_ORG, else your only organization)', env: 'DOCS_ORG' }) };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(SitesSchemaSet);
    let json: any;
    try {
      json = JSON.parse(readFileSync(args.file === '-' ? 0 : args.file, 'utf8'));
    } catch (err) {
      throw new DocsError('invalid', `${args.file}: ${(err as Error).message}`);
    }
    const jsonSchema = json && typeof json === 'object' && 'jsonSchema' in json ? json.jsonSchema : json;
    const transport = await this.transport(flags);
    const path = { organizationId: flags.org ?? (await soleOrganization(transport)), siteId: args.siteId };
    const { body } = await transport.call('updateSiteAdaptiveSchema', { path, body: { jsonSchema } });
    if (!this.jsonEnabled()) this.log(`Visitor schema set (${Object.keys(jsonSchema?.properties ?? {}).length} claims).`);
    return body;
  }
}
