import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { DocsCommand } from '../_lib/base.js';
import { DocsError } from '../../src/kernel/errors.js';
import { orgFlag, organizationOf } from '../_lib/org.js';

export default class Content extends DocsCommand {
  static operations = ['getOpenAPISpecVersionContentById', 'getLatestOpenAPISpecVersionContent'];
  static summary = 'Print the parsed documents of a version of an OpenAPI spec (default: the latest)';
  static description =
    'API: GET /v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content (getOpenAPISpecVersionContentById; getLatestOpenAPISpecVersionContent without VERSION_ID). Prints {filesystem, url} as JSON; --file prints one document of the filesystem.';
  static examples = [
    '<%= config.bin %> openapi content petstore',
    '<%= config.bin %> openapi content petstore 0bTgR2yWv1xZx3AbCdEf --file openapi.yaml > petstore.json',
  ];
  static args = {
    specSlug: Args.string({ description: 'slug of the spec', required: true }),
    versionId: Args.string({ description: 'version id (default: latest)', required: false }),
  };
  static flags = {
    org: orgFlag(),
    file: Flags.string({ description: 'Print only this document of the filesystem (e.g. openapi.yaml)' }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(Content);
    const transport = await this.transport(flags);
    const organizationId = await organizationOf(flags, transport);
    const path = { organizationId, specSlug: args.specSlug };
    const result =
      args.versionId && args.versionId !== 'latest'
        ? await transport.call('getOpenAPISpecVersionContentById', { path: { ...path, versionId: args.versionId } })
        : await transport.call('getLatestOpenAPISpecVersionContent', { path });
    const body = result.body as { filesystem: Record<string, unknown>; url: string };
    let out: unknown = body;
    if (flags.file !== undefined) {
      if (!(flags.file in body.filesystem))
        throw new DocsError('not_found', `file: ${flags.file} is not in this version (files: ${Object.keys(body.filesystem).join(', ')})`);
      out = body.filesystem[flags.file];
    }
    if (!this.jsonEnabled()) this.log(JSON.stringify(out, null, 2));
    return out;
  }
}
