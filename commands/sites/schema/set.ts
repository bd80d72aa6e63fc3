import * as Args from '@oclif/core/args';
import { readFileSync } from 'node:fs';
import { DocsError } from '../../../src/kernel/errors.js';
import { DocsCommand } from '../../_lib/base.js';
import { orgFlag, organizationOf } from '../../_lib/org.js';

export default class SitesSchemaSet extends DocsCommand {
  static operations = ['updateSiteAdaptiveSchema'];
  static summary = "Set a site's adaptive-content visitor schema (JSON Schema draft-07) from a file";
  static description =
    'API: PUT /v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema (updateSiteAdaptiveSchema). The file holds the schema itself, or {"jsonSchema": ...}.';
  static examples = [
    '<%= config.bin %> sites schema set szK9Qp2mTtR4bLx0aVn1 visitor-schema.json',
    'cat visitor-schema.json | <%= config.bin %> sites schema set szK9Qp2mTtR4bLx0aVn1 -',
  ];
  static args = {
    siteId: Args.string({ description: 'The site (its ID)', required: true }),
    file: Args.string({ description: 'JSON file with the schema ("-" for stdin)', required: true }),
  };
  static flags = { org: orgFlag() };

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
    const path = { organizationId: await organizationOf(flags, transport), siteId: args.siteId };
    const { body } = await transport.call('updateSiteAdaptiveSchema', { path, body: { jsonSchema } });
    if (!this.jsonEnabled()) this.log(`Visitor schema set (${Object.keys(jsonSchema?.properties ?? {}).length} claims).`);
    return body;
  }
}
