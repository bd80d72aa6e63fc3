import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, docs, spawnServe } from '../helpers/cli.js';
import { fingerprint } from '../helpers/fingerprint.js';
import { startServer, tempDir, TEST_TOKEN } from '../helpers/server.js';

// Damaged files are named, never silently dropped. The store keeps a catalog of its committed
// shards (checksums/NN.json: SHA-256 and size per shard file, written in the same commit). A start
// on a directory with a committed shard missing, emptied, cut short or replaced by something
// that is not a shard (invalid JSON, `null`, `[]`) exits 1 with one line naming the file and
// what is wrong, and writes nothing; a shard damaged in place at its size is caught when loaded
// (503 naming the file). `docs doctor` reports the damage and exits 1; `--repair` quarantines
// the file and says what was lost, after which the store opens again.

let pristine: string; // a store with an owner, an organization and two spaces
let org: string;
let spaceA: string;
let spaceB: string;

beforeAll(async () => {
  pristine = tempDir();
  const s = await startServer({ dataDir: pristine });
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  spaceA = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Kept' } })).body.id;
  spaceB = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Damaged' } })).body.id;
  await s.stop();
}, 60_000);
const made: string[] = [];
afterAll(() => {
  for (const d of [pristine, ...made]) rmSync(d, { recursive: true, force: true });
});

/** A copy of the pristine store. */
function copy(): string {
  const d = tempDir();
  made.push(d);
  cpSync(pristine, d, { recursive: true });
  return d;
}

/** Starts `docs serve` on `dir`; resolves with its exit code and stderr once it exits (or fails the test after 20 s). */
function failedStart(dir: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data', dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DOCS_BOOTSTRAP_TOKEN: 'gb_api_would_be_new_owner' },
    });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', (d) => (stdout += d));
    const t = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`docs serve started on a damaged store: ${stdout}`))), 20_000);
    child.on('exit', (code) => (clearTimeout(t), resolve({ code, stderr })));
  });
}

const shard = (dir: string, name: string) => join(dir, 'store', name);

describe('a damaged data directory stops docs serve, naming the file', () => {
  const cases: [string, (dir: string) => string, RegExp][] = [
    [
      'an organization shard cut short',
      (d) => (truncateSync(shard(d, `org__${org}.json`), 200), `org__${org}.json`),
      /is cut short \(200 of its \d+ bytes\): it is not valid JSON/,
    ],
    ['an emptied shard', (d) => (writeFileSync(shard(d, `space__${spaceB}.json`), ''), `space__${spaceB}.json`), /is empty/],
    ['invalid JSON', (d) => (writeFileSync(shard(d, `space__${spaceB}.json`), '{"spaces": {'), `space__${spaceB}.json`), /is not valid JSON/],
    ['valid JSON null', (d) => (writeFileSync(shard(d, `org__${org}.json`), 'null'), `org__${org}.json`), /is not a shard: its JSON is null/],
    ['valid JSON []', (d) => (writeFileSync(shard(d, `org__${org}.json`), '[]'), `org__${org}.json`), /is not a shard: its JSON is an array/],
    ['a deleted shard file', (d) => (rmSync(shard(d, `space__${spaceB}.json`)), `space__${spaceB}.json`), /is missing/],
    ['the deleted root shard', (d) => (rmSync(shard(d, 'root.json')), 'root.json'), /is missing/],
  ];
  for (const [what, damage, problem] of cases) {
    it(`${what}: exit 1, one line naming the file, nothing written`, async () => {
      const dir = copy();
      const file = damage(dir);
      const before = fingerprint(dir);
      const r = await failedStart(dir);
      expect(r.code).toBe(1);
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`data directory ${dir}: store/${file} `);
      expect(lines[0]).toMatch(problem);
      expect(fingerprint(dir)).toEqual(before);
      // docs doctor says the same, and exits 1.
      const d = await docs(['doctor', '--data', dir]);
      expect(d.status).toBe(1);
      expect(d.stdout).toContain(`DAMAGED store/${file} `);
    }, 40_000);
  }
});

// A directory of another format (src/store/data-format.ts): a format from the future, two formats
// mixed, a damaged marker, or an older directory whose catalog names a missing file: one line,
// exit 1, and nothing written (the older directory is not migrated by a start that fails).
const FIXTURE = join(import.meta.dirname, '../fixtures/format-2/data');
describe('a directory of another format stops docs serve and every command, naming it', () => {
  const cases: [string, (dir: string) => void, string | RegExp][] = [
    [
      'a format from the future',
      (d) => writeFileSync(join(d, 'shards'), JSON.stringify({ format: 4, writtenBy: 'docs 9.0.0' })),
      /: has format 4 \(written by docs 9\.0\.0\); this docs \(\d+\.\d+\.\d+\) reads formats 1 to 3: use docs 9\.0\.0 or later; nothing was changed$/,
    ],
    [
      'two formats mixed',
      (d) => (rmSync(join(d, 'shards')), mkdirSync(join(d, 'shards')), writeFileSync(join(d, 'shards', 'root.json'), '{}')),
      ': two formats mixed: shards/ holds shard files of format 1 or 2 and store/ those of format 3',
    ],
    ['a damaged format marker', (d) => writeFileSync(join(d, 'shards'), '{"form'), ': shards (the format marker) is damaged: '],
    [
      'the shard folder gone, the marker left',
      (d) => renameSync(join(d, 'store'), join(d, 'elsewhere')),
      ': store/ is missing (the format marker says format 3',
    ],
  ];
  for (const [what, damage, problem] of cases) {
    it(`${what}: exit 1, one line, nothing written (serve, doctor, an in-process command)`, async () => {
      const dir = copy();
      damage(dir);
      const before = fingerprint(dir);
      const r = await failedStart(dir);
      expect(r.code).toBe(1);
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`data directory ${dir}`);
      if (typeof problem === 'string') expect(lines[0]).toContain(problem);
      else expect(lines[0]).toMatch(problem);
      for (const args of [['doctor'], ['doctor', '--repair', '--yes'], ['orgs', 'list']]) {
        const c = await docs([...args, '--data', dir], { DOCS_TOKEN: TEST_TOKEN });
        expect(c.status, args.join(' ')).toBe(1);
        expect(c.stderr).toContain(lines[0]!.replace(/^Error: /, ''));
      }
      expect(fingerprint(dir)).toEqual(before);
    }, 40_000);
  }

  it('an older directory whose catalog names a missing file: exit 1 naming it, not migrated', async () => {
    const dir = tempDir();
    made.push(dir);
    cpSync(FIXTURE, dir, { recursive: true });
    const [victim] = readdirSync(join(dir, 'shards')).filter((f) => f.startsWith('space__'));
    rmSync(join(dir, 'shards', victim!));
    const before = fingerprint(dir);
    const r = await failedStart(dir);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `Error: data directory ${dir}: shards/${victim} is missing (the catalog of committed shards lists it) (see docs doctor --data ${dir})`,
    );
    expect(fingerprint(dir)).toEqual(before);
    const d = await docs(['doctor', '--data', dir]);
    expect(d.status).toBe(1);
    expect(d.stdout).toContain(`DAMAGED shards/${victim} is missing`);
  }, 40_000);
});

describe('damage at the same size, found when the shard is loaded', () => {
  it('a request touching it answers 503 naming the file; the rest of the store answers', async () => {
    const dir = copy();
    const file = shard(dir, `space__${spaceB}.json`);
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('Damaged', 'Dam4ged')); // valid JSON, same size, not what was committed
    const served = await spawnServe(['--data', dir], {});
    try {
      const get = (path: string) =>
        fetch(served.url + path, { headers: { authorization: `Bearer ${TEST_TOKEN}` } }).then(async (r) => ({ status: r.status, body: await r.json() }));
      const bad = await get(`/v1/spaces/${spaceB}`);
      expect(bad.status).toBe(503);
      expect(bad.body.error.message).toContain(`store/space__${spaceB}.json does not match its checksum`);
      const okA = await get(`/v1/spaces/${spaceA}`);
      expect(okA.status, JSON.stringify(okA.body)).toBe(200);
      expect(served.output()).toMatch(new RegExp(`GET /v1/spaces/${spaceB} 503 .*does not match its checksum`));
    } finally {
      served.child.kill('SIGTERM');
      await served.exited;
    }
  }, 40_000);
});

describe('docs doctor', () => {
  it('finds no damage in a healthy store (exit 0)', async () => {
    const r = await docs(['doctor', '--data', pristine, '--json']);
    expect(r.status).toBe(0);
    expect(r.json.damaged).toEqual([]);
    expect(r.json.shards).toBeGreaterThan(3);
    expect(r.json.rows).toBeGreaterThan(3);
  });

  it('--repair quarantines a damaged space shard, says what was lost, and the store opens again', async () => {
    const dir = copy();
    writeFileSync(shard(dir, `space__${spaceB}.json`), 'null');
    expect((await docs(['doctor', '--data', dir])).status).toBe(1);
    expect(existsSync(join(dir, 'quarantine'))).toBe(false); // nothing moved without --repair
    const refused = await docs(['doctor', '--data', dir, '--repair']); // no terminal to ask on, no --yes: the plan, nothing done
    expect(refused.status).toBe(2);
    expect(refused.stdout).toMatch(
      new RegExp(`will move into quarantine/: store/space__${spaceB}\\.json\nwill lose: shard space/${spaceB} .*spaces ${spaceB}`),
    );
    expect(refused.stderr).toMatch(/not confirmed; pass --yes/);
    expect(existsSync(join(dir, 'quarantine'))).toBe(false);
    const r = await docs(['doctor', '--data', dir, '--repair', '--yes']);
    expect(r.stdout).toMatch(new RegExp(`lost: shard space/${spaceB} .*spaces ${spaceB}`));
    expect(r.status).toBe(1); // it found damage: repaired, but not "fine"
    const [stamp] = readdirSync(join(dir, 'quarantine'));
    expect(readFileSync(join(dir, 'quarantine', stamp!, 'store', `space__${spaceB}.json`), 'utf8')).toBe('null');
    expect((await docs(['doctor', '--data', dir])).status).toBe(0);
    const served = await startServer({ dataDir: dir });
    try {
      const get = (path: string) => fetch(served.url + path, { headers: { authorization: `Bearer ${TEST_TOKEN}` } }).then((r) => r.status);
      expect(await get(`/v1/spaces/${spaceA}`)).toBe(200);
      expect(await get(`/v1/spaces/${spaceB}`)).toBe(404);
      // The organization's summary (src/store/summaries.ts) is rebuilt from the rows: the lost space is not listed.
      const listed = await fetch(`${served.url}/v1/orgs/${org}/spaces`, { headers: { authorization: `Bearer ${TEST_TOKEN}` } }).then((r) => r.json());
      expect(listed.items.map((x: { id: string }) => x.id)).toEqual([spaceA]);
    } finally {
      await served.stop();
    }
  }, 60_000);

  it('a damaged bucket of the catalog stops the start, naming it; --repair rebuilds it from the shard files', async () => {
    const dir = copy();
    const [bucket] = readdirSync(join(dir, 'checksums'));
    writeFileSync(join(dir, 'checksums', bucket!), '{"x":');
    const r = await failedStart(dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`data directory ${dir}: checksums/${bucket} is not valid JSON`);
    expect((await docs(['doctor', '--data', dir])).stdout).toContain(`DAMAGED checksums/${bucket} `);
    const repaired = await docs(['doctor', '--data', dir, '--repair', '--yes']);
    expect(repaired.stdout).toMatch(new RegExp(`lost: checksums/${bucket!.replace('.', '\\.')}: rebuilt from the shard files`));
    expect(repaired.status).toBe(1);
    expect((await docs(['doctor', '--data', dir])).status).toBe(0);
  }, 40_000);

  it('notes blobs no row names (not damage), and --repair moves them aside', async () => {
    const dir = copy();
    const sha = 'ab'.repeat(32);
    mkdirSync(join(dir, 'files', 'ab'), { recursive: true });
    writeFileSync(join(dir, 'files', 'ab', sha), 'orphan bytes');
    const r = await docs(['doctor', '--data', dir]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('1 file(s) no row references (12 bytes');
    const fixed = await docs(['doctor', '--data', dir, '--repair', '--yes', '--json']);
    expect(fixed.status).toBe(0);
    expect(fixed.json.repaired.moved).toEqual([`files/ab/${sha}`]);
    expect(existsSync(join(dir, 'files', 'ab', sha))).toBe(false);
  }, 30_000);

  it('refuses a directory held by docs serve (exit 5)', async () => {
    const dir = copy();
    const served = await spawnServe(['--data', dir], {});
    try {
      const r = await docs(['doctor', '--data', dir]);
      expect(r.status).toBe(5);
      expect(r.stderr).toContain('held by docs serve');
    } finally {
      served.child.kill('SIGTERM');
      await served.exited;
    }
  }, 40_000);
});
