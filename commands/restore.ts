import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { DocsCommand } from './_lib/base.js';

export default class Restore extends DocsCommand {
  static summary = 'Restore a backup (.tar.gz of docs backup) into a new data directory';
  static description =
    `Unpacks an archive written by docs backup into --data, which must not exist or be empty (exit code 5 otherwise). All or nothing: every entry is checked before anything is written (only files and folders at plain relative paths, each once: a link, a .. or absolute path, a duplicate entry is refused with exit code 2 naming it), and the archive must hold a complete store (its catalog, root and catalog shards) that docs doctor accepts; otherwise nothing is left behind. Then start docs serve --data on it.`;
  static examples = ['<%= config.bin %> restore docs-backup.tar.gz --data ./docs-data-restored'];
  static baseFlags = {} as typeof DocsCommand.baseFlags;
  static flags = { data: Flags.string({ description: 'The new data directory to restore into (absent or empty)', required: true }) };
  static args = { archive: Args.string({ description: 'The archive (.tar.gz) written by docs backup', required: true }) };

  async run(): Promise<{ data: string; shards: number; rows: number; blobs: number }> {
    const { args, flags } = await this.parse(Restore);
    const dir = flags.data;
    const { restoreArchive } = await import('../src/store/backup.js');
    const r = await restoreArchive(args.archive, dir);
    if (!this.jsonEnabled()) this.log(`Restored ${args.archive} into ${dir}: ${r.shards} shard files, ${r.rows} rows, ${r.blobs} blobs, checked.`);
    return { data: dir, ...r };
  }
}
