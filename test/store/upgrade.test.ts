import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doctor } from '../../src/store/doctor.js';
import { docs } from '../helpers/cli.js';
import { fingerprint } from '../helpers/fingerprint.js';
import { startServer, tempDir, TEST_TOKEN } from '../helpers/server.js';

// Upgrading a data directory of the previous format. test/fixtures/format-2 was written by the
// build before format 3 (commit 95a8450, through test/helpers/world.ts: one of everything the API
// serves, files merged and in an open change request, an image, an OpenAPI version, a rendered
// PDF), with every GET of the world as that build answered it (reads.json). A copy (never the
// fixture itself) is opened by this build: migrated to format 3 (src/store/data-format.ts),
// every read answers the same, every file downloads, doctor finds it clean and --repair moves
// nothing. A migration cut between its steps is completed by the next open.

const FIXTURE = join(import.meta.dirname, '../fixtures/format-2');
const ids: Record<string, string> = JSON.parse(readFileSync(join(FIXTURE, 'ids.json'), 'utf8'));
const reads: Record<string, { status: number; body: string }> = JSON.parse(readFileSync(join(FIXTURE, 'reads.json'), 'utf8'));
const pristine = fingerprint(join(FIXTURE, 'data'));
const made: string[] = [];
/** A copy of the fixture's data directory. */
function copy(): string {
  const d = tempDir();
  made.push(d);
  cpSync(join(FIXTURE, 'data'), d, { recursive: true });
  return d;
}
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
  expect(fingerprint(join(FIXTURE, 'data'))).toEqual(pristine); // the fixture itself never changes
});

/** Every read of reads.json against a server on `dir`, and every file downloaded through a new link. */
/**
 * A read answers as the build that wrote the directory did: the same status, and every field it
 * answered with the same value. Fields a later build adds (0.202.0's, e.g. page `tags`) may come
 * on top; nothing recorded may change or go.
 */
function expectSameRead(got: { status: number; body: string } | undefined, want: { status: number; body: string }, label: string) {
  expect(got?.status, label).toBe(want.status);
  let recorded: unknown;
  try {
    recorded = JSON.parse(want.body);
  } catch {
    return expect(got?.body, label).toBe(want.body);
  }
  expect(JSON.parse(got!.body), label).toMatchObject(withoutChanged(recorded, label) as object);
}

/**
 * Figures whose meaning changed by design since the fixture was written: a conversation cluster's
 * task counts were always 0 and now count its agent task (docs/manual/agents.md#agent-tasks).
 */
function withoutChanged(recorded: unknown, label: string): unknown {
  if (!label.includes('conversations-clusters')) return recorded;
  const strip = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(strip)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .filter(([k]) => !/^tasks[A-Z]/.test(k))
              .map(([k, x]) => [k, strip(x)]),
          )
        : v;
  return strip(recorded);
}

async function readAll(dir: string): Promise<{ reads: typeof reads; downloads: [string, number, string][] }> {
  const s = await startServer({ dataDir: dir });
  try {
    const got: typeof reads = {};
    for (const path of Object.keys(reads)) {
      const r = await fetch(s.url + path, { headers: { authorization: `Bearer ${TEST_TOKEN}` } });
      got[path] = {
        status: r.status,
        body: (await r.text())
          .split(s.url)
          .join('{base}')
          .replace(/exp=\d+/g, 'exp={exp}')
          .replace(/sig=[\w-]+/g, 'sig={sig}'),
      };
    }
    const downloads: [string, number, string][] = [];
    for (const where of [`/v1/spaces/${ids.spaceId}/content/files`, `/v1/spaces/${ids.spaceId}/change-requests/${ids.filesCr}/content/files`]) {
      for (const f of (await s.api('GET', where)).body.items) {
        const r = await fetch(f.downloadURL);
        downloads.push([f.name, r.status, Buffer.from(await r.arrayBuffer()).toString('base64')]);
      }
    }
    return { reads: got, downloads: downloads.sort() };
  } finally {
    await s.stop();
  }
}

describe('a data directory of format 2, opened by this build', () => {
  let dir: string;
  beforeAll(() => {
    dir = copy();
  });

  it('doctor reads it where it is, finds nothing wrong, and writes nothing', async () => {
    const before = fingerprint(dir);
    const r = await doctor(dir);
    expect(r.format).toBe(2);
    expect(r.damaged).toEqual([]);
    expect(r.notes).toEqual(['format 2 (written by an earlier docs): the next start migrates it to format 3']);
    expect(r.blobs).toBe(4);
    expect(fingerprint(dir)).toEqual(before);
  });

  it('is migrated at its first start: every read answers as the build that wrote it did, every file downloads', async () => {
    const { reads: got, downloads } = await readAll(dir);
    expect(Object.keys(got).length).toBeGreaterThan(80);
    for (const [path, want] of Object.entries(reads)) expectSameRead(got[path], want, `GET ${path}`);
    expect(downloads.map(([name, status]) => [name, status])).toEqual([
      ['dot.png', 200],
      ['draft.txt', 200],
      ['notes.txt', 200],
      ['notes.txt', 200],
    ]);
    expect(downloads.find(([n]) => n === 'draft.txt')![2]).toBe(Buffer.from('draft').toString('base64'));
    // Format 3: the shard files in store/, the marker where the shard folder was.
    expect(statSync(join(dir, 'store')).isDirectory()).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'shards'), 'utf8'))).toMatchObject({ format: 3, writtenBy: expect.stringMatching(/^docs /) });
  }, 60_000);

  it('doctor finds the migrated directory clean; --repair moves nothing', async () => {
    const r = await docs(['doctor', '--data', dir, '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ format: 3, damaged: [], notes: [] });
    const before = fingerprint(dir);
    const fixed = await docs(['doctor', '--data', dir, '--repair', '--json']);
    expect(fixed.status, fixed.stderr).toBe(0);
    expect(fixed.json.plan).toEqual({ adopt: [], refused: [], move: [], lost: [] });
    expect(existsSync(join(dir, 'quarantine'))).toBe(false);
    expect(fingerprint(dir)).toEqual(before);
  }, 30_000);
});

describe('docs doctor --repair on a damaged directory of format 2', () => {
  it('shows its plan and changes nothing (not even the format) until it is confirmed', async () => {
    const dir = copy();
    const [victim] = readdirSync(join(dir, 'shards')).filter((f) => f.startsWith('integration__'));
    writeFileSync(join(dir, 'shards', victim!), '[]');
    const before = fingerprint(dir);
    const asked = await docs(['doctor', '--data', dir, '--repair']);
    expect(asked.status).toBe(2);
    expect(asked.stdout).toContain(`DAMAGED shards/${victim} is not a shard`);
    expect(asked.stdout).toContain(`will move into quarantine/: store/${victim}`);
    expect(fingerprint(dir)).toEqual(before);
    const done = await docs(['doctor', '--data', dir, '--repair', '--yes']);
    expect(done.status).toBe(1);
    expect(done.stdout).toMatch(/Moved 1 file\(s\) into quarantine\//);
    expect((await docs(['doctor', '--data', dir, '--json'])).json).toMatchObject({ format: 3, damaged: [] });
  }, 30_000);
});

describe('a migration cut short is completed by the next open', () => {
  it('after the marker was staged, before any rename: the temp file goes, the migration runs', async () => {
    const dir = copy();
    writeFileSync(join(dir, '.format-shards.123.abc.tmp'), '{"format":3}');
    const { reads: got } = await readAll(dir);
    expectSameRead(got[`/v1/spaces/${ids.spaceId}`], reads[`/v1/spaces/${ids.spaceId}`]!, 'space');
    expect(existsSync(join(dir, '.format-shards.123.abc.tmp'))).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, 'shards'), 'utf8')).format).toBe(3);
  }, 60_000);

  it('between the two renames (store/ without a marker): doctor says so, the next open writes the marker', async () => {
    const dir = copy();
    renameSync(join(dir, 'shards'), join(dir, 'store'));
    const r = await doctor(dir);
    expect(r.damaged).toEqual([]);
    expect(r.notes).toContain('a migration to format 3 was interrupted; the next start completes it');
    const { reads: got } = await readAll(dir);
    expectSameRead(got[`/v1/spaces/${ids.spaceId}/content/pages`], reads[`/v1/spaces/${ids.spaceId}/content/pages`]!, 'pages');
    expect(JSON.parse(readFileSync(join(dir, 'shards'), 'utf8')).format).toBe(3);
  }, 60_000);
});
