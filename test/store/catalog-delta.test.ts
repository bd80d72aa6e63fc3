import { copyFileSync, existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { doctor } from '../../src/store/doctor.js';
import { FileBackend } from '../../src/store/file-backend.js';
import { JOURNAL, journalRecord, lastWrites, parseJournal } from '../../src/store/journal.js';
import { bucketFile, bucketText, catalogEntry, fileName, sumBucket } from '../../src/store/shard-files.js';
import { ShardStore } from '../../src/store/shard-store.js';
import type { TableSpec } from '../../src/store/port.js';
import { tempDir } from '../helpers/server.js';

// A commit journals the catalog entries it changes (`C` entries: file name -> entry, or null when
// removed), not the whole text of each bucket it touches; a replay applies them over the bucket
// as its file (or the journal's last whole text of it) gives it. A crash is stood in for by
// opening the directory again without closing the first store (the catalog's files are written
// only at checkpoints, so they are as old as the last one).

const SPECS: TableSpec[] = [{ name: 'orgs', shard: (r: any) => `org/${r.id}`, locateId: (id: string) => `org/${id}`, indexes: [] } as TableSpec];
const values = (store: ShardStore, ...ids: string[]) => store.read((tx) => ids.map((id) => tx.get<any>('orgs', id)?.v));
const fileOf = (id: string) => fileName(`org/${id}`);
/** `n` ids whose shard files share one catalog bucket, and that bucket's path. */
function sameBucket(n: number): { ids: string[]; path: string } {
  const b = sumBucket(fileOf('x0'));
  const ids: string[] = [];
  for (let i = 0; ids.length < n; i++) if (sumBucket(fileOf(`x${i}`)) === b) ids.push(`x${i}`);
  return { ids, path: `checksums/${bucketFile(b)}` };
}
const bucketOn = (dir: string, path: string) => (existsSync(join(dir, path)) ? JSON.parse(readFileSync(join(dir, path), 'utf8')) : undefined);
const entryOf = (dir: string, id: string) => catalogEntry(readFileSync(join(dir, 'store', fileOf(id)), 'utf8'));

describe('catalog changes in journal records', () => {
  it('a record holds the entries its commit changes, not the whole text of their bucket', async () => {
    const dir = tempDir();
    const { ids, path } = sameBucket(41);
    const store = await ShardStore.open(new FileBackend(dir, { checkpointBytes: 1 << 30 }), SPECS);
    await store.write((tx) => {
      for (const id of ids.slice(0, 40)) tx.put('orgs', { id, v: 1 });
    });
    const size = statSync(join(dir, JOURNAL)).size;
    await store.write((tx) => tx.put('orgs', { id: ids[40]!, v: 1 }));
    const record = readFileSync(join(dir, JOURNAL)).subarray(size);
    const { entries } = parseJournal(record);
    const catalog = entries.filter(([p]) => p === path);
    expect(catalog).toEqual([[path, JSON.stringify({ [fileOf(ids[40]!)]: entryOf(dir, ids[40]!) }), 'C']]);
    // None of the 40 other entries of the bucket is in it.
    for (const id of ids.slice(0, 40)) expect(record.includes(fileOf(id))).toBe(false);
    await store.close();
    expect(Object.keys(bucketOn(dir, path)).sort()).toEqual(ids.map(fileOf).sort());
  });

  it('a crash with the bucket files as the last checkpoint left them: the changes of several records, removals among them, are replayed in order', async () => {
    const dir = tempDir();
    const { ids, path } = sameBucket(4);
    const [a, b, c, d] = ids as [string, string, string, string];
    const first = await ShardStore.open(new FileBackend(dir), SPECS);
    await first.write((tx) => (tx.put('orgs', { id: a, v: 1 }), tx.put('orgs', { id: b, v: 1 })));
    await first.close(); // a checkpoint: the bucket's file lists a and b
    const onDisk = bucketOn(dir, path);
    const crashed = new FileBackend(dir);
    const store = await ShardStore.open(crashed, SPECS);
    await store.write((tx) => tx.put('orgs', { id: c, v: 1 }));
    await store.write((tx) => tx.put('orgs', { id: a, v: 2 }));
    await store.write((tx) => tx.delete('orgs', b));
    await store.write((tx) => tx.put('orgs', { id: d, v: 1 }));
    await store.write((tx) => tx.delete('orgs', d));
    await store.write((tx) => tx.put('orgs', { id: c, v: 3 }));
    // The crash: no close; the bucket's file is as the checkpoint wrote it.
    expect(bucketOn(dir, path)).toEqual(onDisk);
    expect(
      parseJournal(readFileSync(join(dir, JOURNAL)))
        .entries.filter(([p]) => p === path)
        .map((e) => e[2]),
    ).toEqual(Array(6).fill('C'));
    await crashed.discard(); // the crash: the journal closed, nothing checkpointed
    const again = await ShardStore.open(new FileBackend(dir, { statAtOpen: true }), SPECS);
    expect(await values(again, a, b, c, d)).toEqual([2, undefined, 3, undefined]);
    expect(bucketOn(dir, path)).toEqual({ [fileOf(a)]: entryOf(dir, a), [fileOf(c)]: entryOf(dir, c) });
    await again.close();
  });

  it('a crash after a checkpoint wrote the buckets, before the journal was emptied: the changes applied again leave them as they are', async () => {
    const dir = tempDir();
    const { ids, path } = sameBucket(3);
    const [a, b, c] = ids as [string, string, string];
    const store = await ShardStore.open(new FileBackend(dir), SPECS);
    await store.write((tx) => (tx.put('orgs', { id: a, v: 1 }), tx.put('orgs', { id: b, v: 1 })));
    await store.write((tx) => tx.delete('orgs', a));
    await store.write((tx) => tx.put('orgs', { id: a, v: 2 }));
    await store.write((tx) => (tx.put('orgs', { id: c, v: 1 }), tx.delete('orgs', b)));
    await store.write((tx) => tx.put('orgs', { id: c, v: 2 }));
    const journal = readFileSync(join(dir, JOURNAL));
    expect(
      parseJournal(journal)
        .entries.filter(([p]) => p === path)
        .map((e) => e[2]),
    ).toEqual(Array(5).fill('C'));
    await store.close(); // the checkpoint writes every file; close removes the journal
    const written = readFileSync(join(dir, path), 'utf8');
    writeFileSync(join(dir, JOURNAL), journal); // ... as if the crash came before that
    const again = await ShardStore.open(new FileBackend(dir, { statAtOpen: true }), SPECS);
    expect(await values(again, a, b, c)).toEqual([2, undefined, 2]);
    expect(JSON.parse(readFileSync(join(dir, path), 'utf8'))).toEqual(JSON.parse(written));
    expect(Object.keys(JSON.parse(written)).sort()).toEqual([fileOf(a), fileOf(c)].sort());
    expect(existsSync(join(dir, JOURNAL))).toBe(false);
    // Once more: a crash during that replay, its journal replayed again.
    writeFileSync(join(dir, JOURNAL), journal);
    await again.close();
    writeFileSync(join(dir, JOURNAL), journal);
    const third = await ShardStore.open(new FileBackend(dir, { statAtOpen: true }), SPECS);
    expect(await values(third, a, b, c)).toEqual([2, undefined, 2]);
    await third.close();
  });

  it('a last record cut short by a crash ends the replay: the changes before it are applied, its own are not', async () => {
    const dir = tempDir();
    const { ids, path } = sameBucket(2);
    const [a, b] = ids as [string, string];
    const first = await ShardStore.open(new FileBackend(dir), SPECS);
    await first.write((tx) => tx.put('orgs', { id: a, v: 1 }));
    await first.close();
    const crashed = new FileBackend(dir);
    const store = await ShardStore.open(crashed, SPECS);
    await store.write((tx) => tx.put('orgs', { id: b, v: 1 }));
    const whole = statSync(join(dir, JOURNAL)).size;
    await store.write((tx) => tx.put('orgs', { id: a, v: 2 })); // a's file is written at the checkpoint only
    const journal = readFileSync(join(dir, JOURNAL));
    const last = journal.subarray(whole).toString();
    expect(last).toContain(`C ${path} `);
    // The crash tore the last record (never acknowledged) after its bucket change.
    writeFileSync(join(dir, JOURNAL), journal.subarray(0, journal.length - 3));
    await crashed.discard(); // the crash: the journal closed, nothing checkpointed
    const again = await ShardStore.open(new FileBackend(dir, { statAtOpen: true }), SPECS);
    expect(await values(again, a, b)).toEqual([1, 1]);
    expect(bucketOn(dir, path)).toEqual({ [fileOf(a)]: entryOf(dir, a), [fileOf(b)]: entryOf(dir, b) });
    await again.close();
  });

  it('changes after a big commit staged the bucket whole are applied over the file it renamed into place', async () => {
    const dir = tempDir();
    const { ids, path } = sameBucket(3);
    const [a, b, c] = ids as [string, string, string];
    const crashed = new FileBackend(dir, { bigCommit: 4000 });
    const store = await ShardStore.open(crashed, SPECS);
    await store.write((tx) => (tx.put('orgs', { id: a, v: 1, pad: 'x'.repeat(5000) }), tx.put('orgs', { id: b, v: 1 })));
    await store.write((tx) => tx.put('orgs', { id: c, v: 1 }));
    await store.write((tx) => tx.delete('orgs', b));
    const kinds = parseJournal(readFileSync(join(dir, JOURNAL)))
      .entries.filter(([p]) => p === path)
      .map((e) => (e[2] === 'C' ? 'C' : e[2] === true ? 'M' : 'W'));
    expect(kinds).toEqual(['M', 'C', 'C']);
    await crashed.discard(); // the crash: the journal closed, nothing checkpointed
    const again = await ShardStore.open(new FileBackend(dir, { statAtOpen: true }), SPECS);
    expect(await values(again, a, b, c)).toEqual([1, undefined, 1]);
    expect(bucketOn(dir, path)).toEqual({ [fileOf(a)]: entryOf(dir, a), [fileOf(c)]: entryOf(dir, c) });
    await again.close();
  });

  it('a bucket whose entries are all removed is deleted by the replay', async () => {
    const dir = tempDir();
    const { ids, path } = sameBucket(1);
    const first = await ShardStore.open(new FileBackend(dir), SPECS);
    await first.write((tx) => tx.put('orgs', { id: ids[0]!, v: 1 }));
    await first.close();
    expect(existsSync(join(dir, path))).toBe(true);
    const crashed = new FileBackend(dir);
    const store = await ShardStore.open(crashed, SPECS);
    await store.write((tx) => tx.delete('orgs', ids[0]!));
    expect(readFileSync(join(dir, JOURNAL), 'utf8')).toContain(`C ${path} `);
    await crashed.discard(); // the crash: the journal closed, nothing checkpointed
    const again = await ShardStore.open(new FileBackend(dir, { statAtOpen: true }), SPECS);
    expect(await values(again, ids[0]!)).toEqual([undefined]);
    expect(existsSync(join(dir, path))).toBe(false);
    await again.close();
  });

  it('merges a bucket’s changes over its last whole text (a journal of an earlier docs), and a whole text replaces them', () => {
    const path = 'checksums/07.json';
    const e1 = `${'a'.repeat(64)}:1`;
    const e2 = `${'b'.repeat(64)}:2`;
    const whole = bucketText(new Map([['x.json', e1]]));
    const parsed = parseJournal(
      Buffer.from(
        journalRecord([[path, whole]]) +
          journalRecord([[path, JSON.stringify({ 'y.json': e2, 'x.json': null }), 'C']]) +
          journalRecord([[path, JSON.stringify({ 'x.json': e2 }), 'C']]),
      ),
    );
    expect(parsed.records).toBe(3);
    expect(lastWrites(parsed.entries).get(path)).toEqual([
      whole,
      false,
      new Map([
        ['y.json', e2],
        ['x.json', e2],
      ]),
    ]);
    // Changes alone: over the file as it is (base undefined).
    expect(lastWrites(parsed.entries.slice(1)).get(path)).toEqual([
      undefined,
      false,
      new Map([
        ['y.json', e2],
        ['x.json', e2],
      ]),
    ]);
    // A whole text after them: it alone.
    expect(lastWrites([...parsed.entries, [path, null]]).get(path)).toEqual([null, false]);
    // Changes that are not entries are refused (the record's checksum matched: never written so).
    expect(() => lastWrites([[path, '{"x.json":"nope"}', 'C']])).toThrow(/not an entry/);
  });

  it('docs doctor examines the catalog as the journal’s changes leave it (new and removed shards), and --repair writes it', async () => {
    const dir = tempDir();
    const { ids, path } = sameBucket(3);
    const [a, b, c] = ids as [string, string, string];
    const first = await ShardStore.open(new FileBackend(dir), SPECS);
    await first.write((tx) => (tx.put('orgs', { id: a, v: 1 }), tx.put('orgs', { id: b, v: 1 })));
    await first.close();
    const crashed = new FileBackend(dir);
    const store = await ShardStore.open(crashed, SPECS);
    await store.write((tx) => tx.delete('orgs', b)); // its file gone, the bucket on disk still lists it
    await store.write((tx) => tx.put('orgs', { id: c, v: 1 })); // its file there, the bucket on disk does not list it
    await store.write((tx) => tx.put('orgs', { id: a, v: 2 }));
    // Neither is damage: the journal's changes hold both (this bare store has no root.json: doctor names that alone).
    await crashed.discard(); // the crash: the journal closed, nothing checkpointed
    const report = await doctor(dir);
    expect(report.notes).toContainEqual(expect.stringMatching(/^journal: commits after the last checkpoint/));
    expect(report.damaged.map((d) => d.file)).toEqual(['store/root.json']);
    expect(report.rows).toBe(2);
    // A change naming a file that is not a bucket of the catalog is.
    const bad = journalRecord([['store/x.json', '{}', 'C']]);
    writeFileSync(join(dir, `${JOURNAL}.kept`), readFileSync(join(dir, JOURNAL)));
    writeFileSync(join(dir, JOURNAL), Buffer.concat([readFileSync(join(dir, JOURNAL)), Buffer.from(bad)]));
    expect((await doctor(dir)).damaged.map((d) => d.file)).toContain(JOURNAL);
    copyFileSync(join(dir, `${JOURNAL}.kept`), join(dir, JOURNAL));
    await doctor(dir, { repair: true, confirm: async () => true });
    expect(existsSync(join(dir, JOURNAL))).toBe(false);
    expect(bucketOn(dir, path)).toEqual({ [fileOf(a)]: entryOf(dir, a), [fileOf(c)]: entryOf(dir, c) });
    expect(readdirSync(join(dir, 'store')).filter((f) => f === fileOf(b))).toEqual([]);
    expect((await doctor(dir)).damaged.map((d) => d.file)).toEqual(['store/root.json']);
  });
});
