import * as Flags from '@oclif/core/flags';
import { DocsError } from '../src/kernel/errors.js';
import type { DoctorReport } from '../src/store/doctor.js';
import { tryLock } from '../src/store/lock.js';
import { defaultDataDir } from '../src/transport/profiles.js';
import { DocsCommand } from './_lib/base.js';

export default class Doctor extends DocsCommand {
  static summary = 'Check a data directory for damage (and quarantine it with --repair)';
  static description = `Checks a data directory without starting a store on it: every committed shard file is there, parses as a shard and matches its checksum in the catalog; every directory entry and segment points at a row that exists; every file a row names is there; no blob is unreferenced. Prints a report; exits 1 when something is damaged.

With --repair, damaged shard files (and unreferenced blobs) are moved into <data>/quarantine/<time>/, dropped from the catalog, the directory entries pointing into them dropped, and the report says which rows were lost. Nothing is moved without --repair. A directory held by a running docs serve is refused (stop it first).`;
  static examples = ['<%= config.bin %> doctor --data ./docs-data', '<%= config.bin %> doctor --data ./docs-data --repair', '<%= config.bin %> doctor --data ./docs-data --json'];
  static baseFlags = { data: DocsCommand.baseFlags.data } as unknown as typeof DocsCommand.baseFlags;
  static flags = {
    repair: Flags.boolean({ description: 'Move damaged shard files and unreferenced blobs into <data>/quarantine/ and say what was lost' }),
  };

  async run(): Promise<DoctorReport> {
    const { flags } = await this.parse(Doctor);
    const dir = flags.data ?? defaultDataDir();
    const got = tryLock(dir);
    if (!got.ok) throw new DocsError('conflict', `data directory ${dir} is held by ${got.holder.url ? `docs serve at ${got.holder.url} (stop it first)` : `another docs process (pid ${got.holder.pid})`}`);
    let report: DoctorReport;
    try {
      const { doctor } = await import('../src/store/doctor.js');
      report = await doctor(dir, { repair: flags.repair });
    } finally {
      got.release();
    }
    if (!this.jsonEnabled()) {
      const r = report;
      this.log(`${dir}: ${r.shards} shard files, ${r.rows} rows, ${r.blobs} blobs`);
      for (const d of r.damaged) this.log(`DAMAGED ${d.file} ${d.problem}`);
      for (const n of r.notes) this.log(`note: ${n}`);
      if (r.repaired) {
        this.log(`Repaired: moved ${r.repaired.moved.length} file(s) into ${r.repaired.quarantine}/`);
        for (const l of r.repaired.lost) this.log(`lost: ${l}`);
      }
      this.log(r.damaged.length ? `${r.damaged.length} problem(s) found${flags.repair ? '' : '; docs doctor --repair moves damaged files aside'}` : 'No damage found.');
    }
    if (report.damaged.length) process.exitCode = 1;
    return report;
  }
}
