import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { writeFileSync } from 'node:fs';
import { DocsCommand } from '../_lib/base.js';
import { safeSegment } from '../_lib/pull-target.js';

export default class FilesDownload extends DocsCommand {
  static operations = ['getFileById'];
  static summary = "Save a file's bytes (from its downloadURL)";
  static description =
    "API: GET /v1/spaces/{spaceId}/content/files/{fileId} (getFileById), then its downloadURL. Saves to --output, else to the file's name in the current folder.";
  static examples = [
    '<%= config.bin %> files download dHD9ZmkOPnfy9hWCsaQB Xb1fHq0zYk2mWvPpLr7s',
    '<%= config.bin %> files download dHD9ZmkOPnfy9hWCsaQB Xb1fHq0zYk2mWvPpLr7s --output logo.png',
  ];
  static args = {
    spaceId: Args.string({ description: 'The space (its ID)', required: true }),
    fileId: Args.string({ description: 'The file (its ID)', required: true }),
  };
  static flags = { output: Flags.string({ char: 'o', description: 'where to save (default: the file name, without its folders)' }) };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(FilesDownload);
    const transport = await this.transport(flags);
    const file = (await transport.call('getFileById', { path: args })).body as any;
    const bytes = await transport.download(file.downloadURL);
    // The server's name, last segment, made a safe one: `..`, `a\..\x` or an empty name (from a
    // store written by an older build) must not climb out of, or fail on, the current folder.
    const last = String(file.name ?? '').slice(String(file.name ?? '').lastIndexOf('/') + 1);
    const out = flags.output ?? safeSegment(last);
    if (!flags.output && out !== last)
      process.stderr.write(`Warning: the file's name ${JSON.stringify(file.name)} is not a safe file name here; saved as ${out}\n`);
    writeFileSync(out, bytes);
    if (!this.jsonEnabled()) this.log(`Saved ${file.name} (${bytes.length} bytes) to ${out}.`);
    return { file: file.id, path: out, size: bytes.length };
  }
}
