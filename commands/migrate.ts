import * as Flags from '@oclif/core/flags';
import { copyStore, formatBytes, type CopySummary } from '../src/store/copy-store.js';
import { DocsCommand } from './_lib/base.js';

export default class Migrate extends DocsCommand {
  static summary = 'Copy a store between a data directory and PostgreSQL';
  static description =
    `Copies every record of the store at --from into the empty store at --to, in one commit, then checks the copy. Each is a data directory or a PostgreSQL URL (postgres://user@host/db[?schema=name]). The source is brought to the current layout first. A data directory held by a running docs serve is refused (stop it first); so is a destination that already holds a store (exit code 5). Stop the servers of a PostgreSQL source: a source that changes during the copy is refused.

File bytes (uploaded files, OpenAPI documents, PDFs) are not in the records: between two data directories they are copied along; to or from PostgreSQL, --blobs names the servers' --blobs directory to copy them into or out of (without it, the summary says where they stay).`;
  static examples = [
    '<%= config.bin %> migrate --from ./docs-data --to postgres://docs@db.internal/docs',
    '<%= config.bin %> migrate --from ./docs-data --to "postgres://docs@db.internal/docs?schema=team_a" --blobs /mnt/shared/docs-blobs',
    '<%= config.bin %> migrate --from postgres://docs@db.internal/docs --to ./docs-backup --blobs /mnt/shared/docs-blobs --json',
  ];
  // Neither a server nor a transport: the two stores are named by --from and --to.
  static baseFlags = {} as typeof DocsCommand.baseFlags;
  static flags = {
    from: Flags.string({ description: 'The store to copy: a data directory or a postgres:// URL', required: true }),
    to: Flags.string({ description: 'Where to copy it (must hold no store): a data directory or a postgres:// URL', required: true }),
    blobs: Flags.string({ description: 'The file-bytes directory (docs serve --blobs) of the PostgreSQL side: file bytes are copied into it or out of it' }),
  };

  async run(): Promise<CopySummary> {
    const { flags } = await this.parse(Migrate);
    const summary = await copyStore({ from: flags.from, to: flags.to, blobs: flags.blobs });
    if (!this.jsonEnabled()) {
      this.log(`Copied ${summary.shards} shards (${formatBytes(summary.bytes)}) from ${summary.from} to ${summary.to}, verified.`);
      const b = summary.blobs;
      this.log(b.copied ? `File bytes: ${b.files} files (${formatBytes(b.bytes)}) copied from ${b.from} to ${b.to}.` : `${b.note}.`);
    }
    return summary;
  }
}
