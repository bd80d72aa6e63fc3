import * as Args from '@oclif/core/args';
import { DocsError } from '../src/kernel/errors.js';
import { liveHolder, tryLock } from '../src/store/lock.js';
import { defaultDataDir } from '../src/transport/profiles.js';
import { DocsCommand } from './_lib/base.js';

export default class Backup extends DocsCommand {
  static summary = 'Back up a data directory into a .tar.gz (while docs serve runs, too)';
  static description =
    `Writes a consistent snapshot of the data directory (records, catalog, file bytes, OpenAPI documents, PDFs) to a .tar.gz, taken between two commits: every write acknowledged before the backup started is in it. While docs serve holds the directory, the server takes the snapshot (asked with its session token from the lock file) and keeps serving; otherwise the command holds the directory for the time of the snapshot. Search indexes are not included (they are rebuilt). Restore with docs restore.`;
  static examples = [
    '<%= config.bin %> backup --data ./docs-data docs-backup.tar.gz',
    '<%= config.bin %> restore docs-backup.tar.gz --data ./docs-data-restored',
  ];
  static baseFlags = { data: DocsCommand.baseFlags.data } as unknown as typeof DocsCommand.baseFlags;
  static args = { out: Args.string({ description: 'The archive to write (.tar.gz)', required: true }) };

  async run(): Promise<{ out: string; files: number; bytes: number; via: string }> {
    const { args, flags } = await this.parse(Backup);
    const dir = flags.data ?? defaultDataDir();
    const { backupHeld, writeArchive } = await import('../src/store/backup.js');
    let result: { files: number; bytes: number; via: string };
    const server = liveHolder(dir);
    if (server?.url && server.token) {
      const res = await fetch(`${server.url}/_docs/backup`, { method: 'POST', headers: { authorization: `Bearer ${server.token}` } }).catch((err) => {
        throw new DocsError('unavailable', `docs serve at ${server.url} holds ${dir} but does not answer: ${err.message}`);
      });
      if (!res.ok || !res.body) {
        const body: any = await res.json().catch(() => undefined);
        throw new DocsError(res.status === 400 ? 'invalid' : 'unavailable', `docs serve at ${server.url}: ${body?.error?.message ?? `HTTP ${res.status}`}`);
      }
      const bytes = await writeArchive(res.body as any, args.out);
      result = { files: Number(res.headers.get('x-docs-files')), bytes, via: `docs serve at ${server.url}` };
    } else {
      const got = tryLock(dir);
      if (!got.ok) throw new DocsError('conflict', `data directory ${dir} is held by another docs process (pid ${got.holder.pid}); try again when it ends`);
      try {
        result = { ...(await backupHeld(dir, args.out)), via: 'this process' };
      } finally {
        got.release();
      }
    }
    if (!this.jsonEnabled()) this.log(`Backed up ${dir} to ${args.out}: ${result.files} files, ${result.bytes} bytes (snapshot by ${result.via}).`);
    return { out: args.out, ...result };
  }
}
