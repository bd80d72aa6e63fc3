import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { readFileSync } from 'node:fs';
import { DocsCommand } from '../_lib/base.js';
import { startSpinner } from '../_lib/color.js';
import { DocsError } from '../../src/kernel/errors.js';
import type { Transport } from '../../src/transport/types.js';
import { orgFlag, organizationOf } from '../_lib/org.js';

type Spec = { slug: string; processingState: string; visibility: string; lastVersion?: string; lastProcessErrorCode?: string; lastProcessedErrors?: { message: string; code?: string }[] };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Processing failed: exit 2, the invalid-input code (the source given is not a usable spec). */
export const EXIT_FAILED = 2;

export default class Put extends DocsCommand {
  static summary = 'Publish an OpenAPI spec by slug (create or update), for CI';
  static description = `API: PUT /v1/orgs/{organizationId}/openapi/{specSlug} (createOrUpdateOpenAPISpecBySlug), then PATCH for --visibility. Never prompts.
With --wait, waits until processing is complete: exit 0 when it succeeded; exit 2 when it failed (every error printed on stderr as file: location: message); exit 1 when --timeout passes first. Without a server, --wait processes in this process; without --wait, an in-process put leaves the spec pending until \`docs serve\` (or another put --wait) runs on the data directory.`;
  static examples = [
    '<%= config.bin %> openapi put petstore --file ./openapi.yaml --wait',
    '<%= config.bin %> openapi put petstore --url https://example.com/openapi.json --visibility public --wait --timeout 120 --json',
    'DOCS_API_URL=http://127.0.0.1:7780 DOCS_TOKEN=$TOKEN <%= config.bin %> openapi put petstore --file openapi.yaml --wait',
  ];
  static args = { specSlug: Args.string({ description: 'slug of the spec (lowercase letters and digits, hyphen-separated)', required: true }) };
  static flags = {
    file: Flags.string({ description: 'Local file with the spec (JSON or YAML), sent as text' }),
    url: Flags.string({ description: 'http(s) URL the server fetches the spec from' }),
    org: orgFlag(),
    visibility: Flags.string({ description: 'Set the visibility too', options: ['private', 'public'] }),
    wait: Flags.boolean({ description: 'Wait until processing is complete' }),
    timeout: Flags.integer({ description: 'Seconds --wait waits at most', default: 300, min: 1 }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(Put);
    if ((flags.file === undefined) === (flags.url === undefined)) throw new DocsError('invalid', 'source: give exactly one of --file PATH or --url URL');
    // The file is read before anything else: a bad path fails without touching the server.
    const source = flags.file !== undefined ? { text: readSpecFile(flags.file) } : { url: flags.url! };
    const transport = await this.transport(flags);
    const path = { organizationId: (await organizationOf(flags, transport)), specSlug: args.specSlug };
    if (flags.wait) transport.runWorkers?.(); // in-process: this process does the processing it waits for
    const put = await transport.call('createOrUpdateOpenAPISpecBySlug', { path, body: { source } });
    const created = put.status === 201;
    let spec = put.body as Spec;
    const previous = spec.lastVersion;
    if (flags.visibility && flags.visibility !== spec.visibility) {
      spec = (await transport.call('updateOpenAPISpecBySlug', { path, body: { visibility: flags.visibility } })).body as Spec;
    }
    if (!flags.wait) {
      if (!this.jsonEnabled()) {
        this.log(`${created ? 'Created' : 'Updated'} OpenAPI spec ${spec.slug}: processing ${spec.processingState}.`);
        if (!transport.remote) process.stderr.write(`Note: no server holds this data directory: ${spec.slug} is processed when \`docs serve\` runs on it, or by a put with --wait.\n`);
      }
      return { spec, created };
    }
    spec = await this.waitForCompletion(transport, path, flags.timeout);
    if (spec.lastProcessErrorCode) {
      const errors = spec.lastProcessedErrors ?? [];
      process.stderr.write(`Processing of ${spec.slug} failed (${spec.lastProcessErrorCode}), ${errors.length} error${errors.length === 1 ? '' : 's'}:\n`);
      for (const e of errors) process.stderr.write(`${localName(e.message, flags.file)}\n`);
      process.exitCode = EXIT_FAILED;
      return { spec, created, version: null };
    }
    const version = spec.lastVersion && spec.lastVersion !== previous ? (await transport.call('getOpenAPISpecVersionById', { path: { ...path, versionId: spec.lastVersion } })).body : null;
    if (!this.jsonEnabled()) {
      this.log(version ? `Published ${spec.slug}: new version ${spec.lastVersion}.` : `Published ${spec.slug}: content unchanged, no new version (latest: ${spec.lastVersion}).`);
    }
    return { spec, created, version };
  }

  /** Polls the spec until `complete`: a spinner on a terminal, a line per state change otherwise. */
  private async waitForCompletion(transport: Transport, path: Record<string, string>, timeoutS: number): Promise<Spec> {
    const deadline = Date.now() + timeoutS * 1000;
    const spinner = await startSpinner();
    let shown = '';
    try {
      for (let delay = 100; ; delay = Math.min(delay * 2, 1000)) {
        const spec = (await transport.call('getOpenAPISpecBySlug', { path })).body as Spec;
        const line = `openapi ${spec.slug}: ${spec.processingState}`;
        if (spinner) spinner.text = line;
        else if (line !== shown) process.stderr.write(line + '\n');
        shown = line;
        if (spec.processingState === 'complete') return spec;
        if (Date.now() + delay > deadline) {
          throw new DocsError('unavailable', `openapi ${spec.slug}: still ${spec.processingState} after ${timeoutS} s; not finished (see docs openapi get ${spec.slug})`);
        }
        await sleep(delay);
      }
    } finally {
      spinner?.stop();
    }
  }
}

function readSpecFile(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new DocsError('invalid', `file: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  if (!text.trim()) throw new DocsError('invalid', `file: ${file} is empty`);
  return text;
}

/** The server names a text source openapi.json / openapi.yaml: show the user's own path instead. */
function localName(message: string, file: string | undefined): string {
  return file ? message.replace(/^openapi\.(json|yaml): /, `${file}: `) : message;
}
