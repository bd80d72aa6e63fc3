import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, docs, spawnServe } from '../helpers/cli.js';
import { startServer, tempDir } from '../helpers/server.js';

// Backup and restore: `docs backup` takes a consistent snapshot while `docs serve` runs and
// writes (the server takes it between two commits), `docs restore` unpacks it into a new
// directory and checks it, and a server on the restored directory has every write acknowledged
// before the backup started.

const made: string[] = [];
const dir = () => {
  const d = tempDir();
  made.push(d);
  return d;
};
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** The built CLI, asynchronously (the test's writers keep running meanwhile). */
function docsAsync(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env };
    for (const k of ['DOCS_API_URL', 'DOCS_TOKEN', 'DOCS_DATA']) delete env[k];
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

const TOKEN = 'gb_api_backup_owner_token';

async function spaceTitles(url: string, org: string): Promise<Set<string>> {
  const titles = new Set<string>();
  let page = '';
  do {
    const res = await fetch(`${url}/v1/orgs/${org}/spaces?limit=100${page ? `&page=${page}` : ''}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const body: any = await res.json();
    expect(res.status).toBe(200);
    for (const s of body.items) titles.add(s.title);
    page = body.next?.page ?? '';
  } while (page);
  return titles;
}

describe('docs backup / docs restore', () => {
  it('a backup taken under load by the running server restores every write acknowledged before it started', async () => {
    const data = dir();
    const out = join(dir(), 'backup.tar.gz');
    const served = await spawnServe(['--data', data, '--quiet'], { DOCS_BOOTSTRAP_TOKEN: TOKEN });
    const acked: { title: string; at: number }[] = [];
    let stop = false;
    try {
      const org = ((await (await fetch(`${served.url}/v1/orgs`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as any).items[0].id;
      const writer = async (w: number) => {
        for (let n = 0; !stop; n++) {
          const title = `w${w}-${n}`;
          const res = await fetch(`${served.url}/v1/orgs/${org}/spaces`, {
            method: 'POST',
            headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
            body: JSON.stringify({ title }),
          });
          const text = await res.text();
          if (res.status !== 201) throw new Error(`write ${title}: ${res.status} ${text}`);
          acked.push({ title, at: performance.now() });
        }
      };
      const failures: unknown[] = [];
      const writers = Array.from({ length: 8 }, (_, w) => writer(w).catch((e) => void failures.push(e)));
      // Load first: at least 20 writes acknowledged (or 15 s on a slow machine).
      for (const t0 = performance.now(); acked.length < 20 && performance.now() - t0 < 15_000; ) await new Promise((r) => setTimeout(r, 50));
      const started = performance.now();
      const before = acked.filter((a) => a.at <= started).map((a) => a.title);
      const backup = await docsAsync(['backup', '--data', data, out]);
      const ended = performance.now();
      await new Promise((r) => setTimeout(r, 200));
      stop = true;
      await Promise.all(writers);
      expect(failures).toEqual([]);
      expect(backup.stderr).toBe('');
      expect(backup.status).toBe(0);
      expect(backup.stdout).toContain(`snapshot by docs serve at ${served.url}`);
      // The server kept acknowledging writes while the backup ran.
      expect(acked.filter((a) => a.at > started && a.at < ended).length).toBeGreaterThan(0);
      expect(before.length).toBeGreaterThanOrEqual(20);

      const restored = join(dir(), 'restored');
      const r = await docs(['restore', out, '--data', restored]);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(existsSync(join(restored, 'lock.json'))).toBe(false);
      expect(readdirSync(restored).filter((f) => f.startsWith('.snapshot-'))).toEqual([]);
      expect((await docs(['doctor', '--data', restored])).status).toBe(0);
      const again = await spawnServe(['--data', restored, '--quiet'], {});
      try {
        const titles = await spaceTitles(again.url, org);
        const missing = before.filter((t) => !titles.has(t));
        expect(missing).toEqual([]);
        // Nothing that was never acknowledged, beyond the writes in flight at the snapshot.
        const all = new Set(acked.map((a) => a.title));
        expect([...titles].filter((t) => t.startsWith('w') && !all.has(t)).length).toBeLessThanOrEqual(8);
      } finally {
        again.child.kill('SIGTERM');
        await again.exited;
      }
      // The snapshot folder is gone from the live directory.
      expect(readdirSync(data).filter((f) => f.startsWith('.snapshot-'))).toEqual([]);
    } finally {
      stop = true;
      served.child.kill('SIGTERM');
      await served.exited;
    }
  }, 120_000);

  it('backs up a directory no server holds, and restores only into an absent or empty directory', async () => {
    const data = dir();
    expect((await docs(['orgs', 'list', '--data', data])).status).toBe(0);
    const out = join(dir(), 'b.tar.gz');
    const b = await docs(['backup', '--data', data, out, '--json']);
    expect(b.status).toBe(0);
    expect(b.json.via).toBe('this process');
    expect(existsSync(join(data, 'lock.json'))).toBe(false);
    const used = dir();
    writeFileSync(join(used, 'x'), 'x');
    const r = await docs(['restore', out, '--data', used]);
    expect(r.status).toBe(5);
    expect(readdirSync(used)).toEqual(['x']);
    const empty = dir();
    expect((await docs(['restore', out, '--data', empty])).status).toBe(0);
    expect((await docs(['orgs', 'list', '--data', empty, '--json'])).json.items).toHaveLength(1);
  }, 60_000);

  it('refuses an archive that is not a docs backup, leaving nothing behind', async () => {
    const parent = dir();
    const junk = join(parent, 'junk.tar.gz');
    writeFileSync(junk, 'not a tarball');
    const target = join(parent, 'new');
    const r = await docs(['restore', junk, '--data', target]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/is not a readable \.tar\.gz|not a docs backup/);
    expect(existsSync(target)).toBe(false);
    expect(readdirSync(parent)).toEqual(['junk.tar.gz']);
  }, 30_000);

  it('the backup route answers only the session token of the server', async () => {
    const data = dir();
    mkdirSync(data, { recursive: true });
    const served = await startServer({ dataDir: data, token: TOKEN });
    try {
      const res = await fetch(`${served.url}/_docs/backup`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(401);
      expect(((await res.json()) as any).error.code).toBe(401);
    } finally {
      await served.stop();
    }
  }, 30_000);
});
