import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DocsCommand } from '../_lib/base.js';
import { orgFlag, soleOrganization } from '../_lib/org.js';
import { DocsError } from '../../src/kernel/errors.js';

function read(file: string, field: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    throw new DocsError('invalid', `${field}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

/** An image given in the manifest as a file path (relative to the manifest) is sent as base64. */
function image(value: unknown, base: string, field: string): unknown {
  if (typeof value !== 'string' || !/\.(png|jpe?g|gif|svg|webp)$/i.test(value)) return value;
  const file = resolve(base, value);
  return existsSync(file) ? read(file, field).toString('base64') : value;
}

export default class Publish extends DocsCommand {
  static operations = ['publishIntegration'];
  static summary = 'Publish an integration (create, or a new version) from a manifest file';
  static description = `API: POST /v1/integrations/{integrationName} (publishIntegration).
The manifest is the JSON request body (title, description, scopes, visibility, blocks, configurations, secrets, ...). --script reads the script from a file; --org sets the owner (default: the manifest's "organization", else your only organization). "icon" and "previewImages" may name image files beside the manifest; they are sent as base64. Secrets are stored, never shown.`;
  static examples = [
    '<%= config.bin %> integrations publish slack --manifest integration.json --script dist/index.js',
    '<%= config.bin %> integrations publish slack --manifest integration.json --org 6yZr3RyMqly3HeMx6Xkr --json',
  ];
  static args = { integrationName: Args.string({ description: 'name: letters, digits, "-", "_", "."', required: true }) };
  static flags = {
    manifest: Flags.string({ description: 'JSON file with the integration definition', required: true }),
    script: Flags.string({ description: 'File with the integration script (overrides the manifest\'s "script")' }),
    org: orgFlag('Owning organization: id or subdomain (default: $DOCS_ORG, else your only organization)'),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(Publish);
    let body: Record<string, any>;
    try {
      body = JSON.parse(read(flags.manifest, 'manifest').toString('utf8'));
    } catch (err) {
      if (err instanceof DocsError) throw err;
      throw new DocsError('invalid', `manifest: ${flags.manifest} is not JSON (${(err as Error).message})`);
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new DocsError('invalid', `manifest: ${flags.manifest} must hold a JSON object`);
    const base = dirname(resolve(flags.manifest));
    if (flags.script !== undefined) body.script = read(flags.script, 'script').toString('utf8');
    if (body.icon !== undefined) body.icon = image(body.icon, base, 'icon');
    if (Array.isArray(body.previewImages)) body.previewImages = body.previewImages.map((p: unknown, n: number) => image(p, base, `previewImages[${n}]`));
    const transport = await this.transport(flags);
    body.organization = flags.org ?? body.organization ?? (await soleOrganization(transport));
    const r = await transport.call('publishIntegration', { path: args, body });
    const out = r.body as { name: string; version: number; visibility: string };
    if (!this.jsonEnabled()) this.log(`Published ${out.name} version ${out.version} (${out.visibility}).`);
    return out;
  }
}
