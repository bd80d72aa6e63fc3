import * as Flags from '@oclif/core/flags';
import { DocsError } from '../src/kernel/errors.js';
import type { DoctorReport, RepairPlan } from '../src/store/doctor.js';
import { tryLock } from '../src/store/lock.js';
import { defaultDataDir } from '../src/transport/profiles.js';
import { DocsCommand } from './_lib/base.js';
import { confirmDestructive } from './_lib/confirm.js';

export default class Doctor extends DocsCommand {
  static summary = 'Check a data directory for damage (take in readable shards with --adopt, quarantine unreadable files with --repair)';
  static description =
    `Checks a data directory without starting a store on it: its format, every committed shard file is there, parses as a shard and matches its checksum in the catalog; every directory entry and segment points at a row that exists; every file a row references (uploaded files, OpenAPI documents) is there; no such file is unreferenced. Prints a report; exits 1 when something is damaged.

--adopt takes in shard files that parse but that the catalog does not list (written by another docs, restored by hand) or whose checksum differs, once their shape and references are checked. --repair does the same, and moves what cannot be read (and files no row references) into <data>/quarantine/<time>/, dropping them from the catalog and saying which rows were lost. Readable data is never moved. Both list what they will do first and ask (on a terminal) or need --yes; both exit 1 when damage was found, even once repaired. A directory held by a running docs serve is refused (stop it first).`;
  static examples = [
    '<%= config.bin %> doctor --data ./docs-data',
    '<%= config.bin %> doctor --data ./docs-data --adopt --yes',
    '<%= config.bin %> doctor --data ./docs-data --repair',
    '<%= config.bin %> doctor --data ./docs-data --json',
  ];
  static baseFlags = { data: DocsCommand.baseFlags.data } as unknown as typeof DocsCommand.baseFlags;
  static flags = {
    repair: Flags.boolean({ description: 'Adopt readable shards; move unreadable files and unreferenced files into <data>/quarantine/ and say what was lost' }),
    adopt: Flags.boolean({ description: 'Take in readable shard files the catalog does not list (or whose checksum differs), after checking them' }),
    yes: Flags.boolean({ char: 'y', description: 'Do what --repair or --adopt lists without asking (required when not on a terminal)' }),
  };

  async run(): Promise<DoctorReport> {
    const { flags } = await this.parse(Doctor);
    const dir = flags.data ?? defaultDataDir();
    const got = tryLock(dir);
    if (!got.ok)
      throw new DocsError(
        'conflict',
        `data directory ${dir} is held by ${got.holder.url ? `docs serve at ${got.holder.url} (stop it first)` : `another docs process (pid ${got.holder.pid})`}`,
      );
    let report: DoctorReport;
    let found = 0;
    try {
      const { doctor } = await import('../src/store/doctor.js');
      report = await doctor(dir, {
        repair: flags.repair,
        adopt: flags.adopt,
        confirm: async (plan, before) => {
          found = before.damaged.length;
          if (!this.jsonEnabled()) this.showPlan(plan, before);
          const n = plan.move.length + plan.adopt.length;
          await confirmDestructive(
            `${flags.repair ? 'Repair' : 'Adopt'} ${dir} (${plan.adopt.length} shard file(s) to take in, ${plan.move.length} file(s) to move into quarantine/)? `,
            flags.yes || n === 0,
          );
          return true;
        },
      });
    } finally {
      got.release();
    }
    found = Math.max(found, report.damaged.length);
    if (!this.jsonEnabled()) {
      const r = report;
      this.log(`${dir}: format ${r.format}, ${r.shards} shard files, ${r.rows} rows, ${r.blobs} files beside the store`);
      for (const d of r.damaged) this.log(`DAMAGED ${d.file} ${d.problem}`);
      for (const n of r.notes) this.log(`note: ${n}`);
      if (r.repaired) {
        for (const a of r.repaired.adopted) this.log(`adopted: ${a}`);
        if (r.repaired.quarantine) this.log(`Moved ${r.repaired.moved.length} file(s) into ${r.repaired.quarantine}/`);
        for (const l of r.repaired.lost) this.log(`lost: ${l}`);
      } else if (r.plan && (flags.repair || flags.adopt)) {
        for (const x of r.plan.refused) this.log(`not adopted: ${x.file} ${x.problem}`);
      }
      if (!found) this.log('No damage found.');
      else if (r.repaired) this.log(`${found} problem(s) found${r.damaged.length ? `, ${r.damaged.length} left` : ', repaired'}.`);
      else
        this.log(
          `${found} problem(s) found; docs doctor --adopt takes in readable shard files, --repair also moves unreadable files aside (both list what they do first)`,
        );
    }
    if (found) process.exitCode = 1;
    return report;
  }

  private showPlan(plan: RepairPlan, before: DoctorReport) {
    for (const d of before.damaged) this.log(`DAMAGED ${d.file} ${d.problem}`);
    for (const a of plan.adopt) this.log(`will adopt: ${a.file} (${a.rows} rows, checked)`);
    for (const x of plan.refused) this.log(`will not adopt: ${x.file} ${x.problem} (left where it is)`);
    for (const m of plan.move) this.log(`will move into quarantine/: ${m}`);
    for (const l of plan.lost) this.log(`will lose: ${l}`);
    for (const c of plan.correct ?? []) this.log(`will correct: ${c}`);
  }
}
