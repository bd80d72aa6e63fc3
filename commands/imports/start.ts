import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import * as Flags from '@oclif/core/flags';
import { DocsError } from '../../src/kernel/errors.js';
import type { Transport } from '../../src/transport/types.js';
import { DocsCommand } from '../_lib/base.js';
import { startSpinner } from '../_lib/color.js';
import { spin } from '../_lib/operation-command.js';
import { orgFlag, organizationOf } from '../_lib/org.js';
import { zipFolder } from '../_lib/zip-folder.js';

type Run = { id: string; status: string; reason?: string; pages: unknown[]; target: { space: string; changeRequest?: string } };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export default class ImportsStart extends DocsCommand {
  static operations = ['startImportRun', 'getImportRun'];
  static summary = 'Import content into a space: an archive, a folder (GitBook, Docusaurus, MkDocs, Mintlify), a URL, or files of the space';
  static description = `API: POST /v1/org/{organizationId}/imports (startImportRun), then GET with --wait.
The pages land in a change request of the space (--change-request, or a new one the run creates). --archive uploads a zip, tar or tar.gz (at most 1 MB) into a new change request and imports it there; --dir zips a folder first (dotfiles left out). --url is fetched by the server through its outbound guard. --file names files already in the target. With --wait, waits until the run ends: exit 0 when it completed, 1 when it failed or was cancelled (the reason on stderr). Without a server, --wait runs the import in this process.`;
  static examples = [
    '<%= config.bin %> imports start --space dHD9ZmkOPnfy9hWCsaQB --dir ./website --wait',
    '<%= config.bin %> imports start --space dHD9ZmkOPnfy9hWCsaQB --archive docs.zip --wait --json',
    '<%= config.bin %> imports start --space dHD9ZmkOPnfy9hWCsaQB --url https://example.com/docs.tar.gz',
  ];
  static flags = {
    org: orgFlag(),
    space: Flags.string({ description: 'The space to import into (its ID)', required: true }),
    'change-request': Flags.string({ description: 'The change request to import into (its ID); default: a new one' }),
    page: Flags.string({ description: 'The page to import under (its ID); default: the top level' }),
    archive: Flags.string({ description: 'A zip, tar or tar.gz file to upload and import' }),
    dir: Flags.string({ description: 'A folder to zip, upload and import' }),
    url: Flags.string({ description: 'A URL the server fetches (an archive or a markdown file)' }),
    file: Flags.string({ description: 'A file of the target to import (its ID or name; repeatable)', multiple: true }),
    wait: Flags.boolean({ description: 'Wait until the run ends' }),
    timeout: Flags.integer({ description: 'Seconds --wait waits at most', default: 300, min: 1 }),
  };

  async run(): Promise<unknown> {
    const { flags } = await this.parse(ImportsStart);
    const sources = [flags.archive, flags.dir, flags.url, flags.file].filter((x) => x !== undefined);
    if (sources.length !== 1) throw new DocsError('invalid', 'give one source: --archive FILE, --dir FOLDER, --url URL or --file ID');
    const transport = await this.transport(flags);
    const organizationId = await organizationOf(flags, transport);
    let changeRequest = flags['change-request'];
    let source: { type: 'file'; files: string[] } | { type: 'website'; url: string };
    if (flags.url) source = { type: 'website', url: flags.url };
    else if (flags.file) source = { type: 'file', files: flags.file };
    else {
      let bytes: Buffer;
      let name: string;
      if (flags.dir) {
        bytes = zipFolder(flags.dir);
        name = `${basename(flags.dir) || 'folder'}.zip`.replace(/[^A-Za-z0-9._-]+/g, '-');
      } else {
        const file = flags.archive!;
        if (!statSync(file, { throwIfNoEntry: false })?.isFile()) throw new DocsError('invalid', `--archive: ${file} is not a file`);
        bytes = readFileSync(file);
        name = basename(file).replace(/[^A-Za-z0-9._-]+/g, '-');
      }
      if (!changeRequest) {
        const cr = await transport.call('createChangeRequest', { path: { spaceId: flags.space }, body: { subject: `Import of ${name}` } });
        changeRequest = (cr.body as { id: string }).id;
      }
      const up = await spin(transport.remote, 'upload', () =>
        transport.call('updateChangeRequestContent', {
          path: { spaceId: flags.space, changeRequestId: changeRequest! },
          query: { compat: false },
          body: {
            changes: [
              { operation: 'insert_files', files: [{ name: `import-${name}`, contentType: 'application/octet-stream', base64: bytes.toString('base64') }] },
            ],
          },
        }),
      );
      source = { type: 'file', files: [(up.body as { insertedFiles: { id: string }[] }).insertedFiles[0]!.id] };
    }
    const target = { space: flags.space, ...(changeRequest ? { changeRequest } : {}), ...(flags.page ? { page: flags.page } : {}) };
    if (flags.wait) transport.runWorkers?.();
    const started = (
      await spin(transport.remote, 'POST imports', () => transport.call('startImportRun', { path: { organizationId }, body: { source, target } }))
    ).body as Run;
    if (!flags.wait) {
      if (!this.jsonEnabled()) this.log(`Import ${started.id} started (${started.status}): docs imports get ${started.id}`);
      return started;
    }
    const run = await waitForRun(transport, { organizationId, importRunId: started.id }, flags.timeout);
    if (run.status !== 'completed') {
      process.stderr.write(`Import ${run.id} ${run.status}${run.reason ? `: ${run.reason}` : ''}\n`);
      process.exitCode = 1;
    } else if (!this.jsonEnabled())
      this.log(
        `✓ Imported ${run.pages.length} pages into change request ${(run as any).changeRequest ?? run.target.changeRequest ?? '(new)'} of space ${run.target.space} (import ${run.id})`,
      );
    return run;
  }
}

/** Polls until the run ends (completed, failed or cancelled). */
export async function waitForRun(transport: Transport, path: Record<string, string>, timeoutS: number): Promise<Run> {
  const deadline = Date.now() + timeoutS * 1000;
  const spinner = await startSpinner();
  try {
    for (let delay = 50; ; delay = Math.min(delay * 2, 1000)) {
      const r = (await transport.call('getImportRun', { path })).body as Run;
      if (spinner) spinner.text = `import ${r.id}: ${r.status}`;
      if (r.status !== 'pending' && r.status !== 'in-progress') return r;
      if (Date.now() + delay > deadline)
        throw new DocsError('unavailable', `import ${r.id}: still ${r.status} after ${timeoutS} s (see docs imports get ${r.id})`);
      await sleep(delay);
    }
  } finally {
    spinner?.stop();
  }
}
