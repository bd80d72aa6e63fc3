import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/kernel/root.js';
import { tempDir } from '../helpers/server.js';

// bin/cli-bundle.cjs compiles the CLI bundle from V8's code cache, written by the first run. The
// tests run on a copy of the built CLI (bin/, dist/cli/docs.cjs, the manifest), so that other test
// files running commands meanwhile never write the cache these tests look at.
const root = packageRoot();
let install: string;
let data: string;
let config: string;

function runWith(args: string[], env: Record<string, string>) {
  const r = spawnSync(process.execPath, [join(install, 'bin', 'run.cjs'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, DOCS_API_URL: undefined, DOCS_TOKEN: undefined, DOCS_DATA: undefined, DOCS_CONFIG_DIR: config, ...env },
    timeout: 12_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
const run = (args: string[]) => runWith(args, {});

const cli = () => join(install, 'dist', 'cli');
const caches = () => readdirSync(cli()).filter((f) => f.endsWith('.cache'));
const build = () => /^\/\/ docs CLI bundle ([0-9a-f]+)\n/.exec(readFileSync(join(cli(), 'docs.cjs'), 'latin1'))![1];
const cacheName = () => `docs-${build()}-${process.version}-${process.arch}.cache`;
const clear = () => caches().forEach((f) => unlinkSync(join(cli(), f)));

beforeAll(() => {
  install = tempDir();
  data = tempDir();
  config = tempDir();
  mkdirSync(join(install, 'bin'));
  mkdirSync(join(install, 'dist', 'cli'), { recursive: true });
  for (const f of ['bin/run.js', 'bin/run.cjs', 'bin/cli-bundle.cjs', 'package.json', 'oclif.manifest.json', 'dist/cli/docs.cjs'])
    copyFileSync(join(root, f), join(install, f));
  for (const d of ['node_modules', 'generated']) symlinkSync(join(root, d), join(install, d));
  expect(run(['orgs', 'list', '--json', '--data', data]).status).toBe(0); // initializes the store
});

describe('the CLI bundle on V8 code cache', () => {
  it('is written by a run without one, named by the build, and read as it is by the next run', () => {
    clear();
    const first = run(['spaces', 'list', '--json', '--data', data]);
    expect(first.status).toBe(0);
    expect(caches()).toEqual([cacheName()]);
    const file = join(cli(), cacheName());
    const before = { bytes: readFileSync(file), mtime: statSync(file).mtimeMs };
    const second = run(['spaces', 'list', '--json', '--data', data]);
    expect(second.status).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    // Accepted by V8, so not written again.
    expect(statSync(file).mtimeMs).toBe(before.mtime);
    expect(readFileSync(file).equals(before.bytes)).toBe(true);
  });

  it('replaces a damaged cache (V8 rejects it) and answers the same meanwhile', () => {
    clear();
    const good = run(['orgs', 'list', '--json', '--data', data]);
    const file = join(cli(), cacheName());
    const garbage = Buffer.alloc(statSync(file).size, 7);
    writeFileSync(file, garbage);
    const r = run(['orgs', 'list', '--json', '--data', data]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(good.stdout);
    expect(readFileSync(file).equals(garbage)).toBe(false);
    // The new one is good: the next run leaves it alone.
    const mtime = statSync(file).mtimeMs;
    expect(run(['orgs', 'list', '--json', '--data', data]).status).toBe(0);
    expect(statSync(file).mtimeMs).toBe(mtime);
  });

  it('refuses a cache whose payload was damaged (V8 checks only its header) and writes a good one', () => {
    clear();
    const good = run(['orgs', 'list', '--json', '--data', data]);
    const file = join(cli(), cacheName());
    const kept = readFileSync(file);
    // A torn write: the header and the first half as written, the rest zeros (renamed into place
    // before its data reached the disk). V8 alone takes it, and runs the zeros as code.
    const torn = Buffer.concat([kept.subarray(0, kept.length >> 1), Buffer.alloc(kept.length - (kept.length >> 1))]);
    writeFileSync(file, torn);
    const r = run(['orgs', 'list', '--json', '--data', data]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(good.stdout);
    expect(readFileSync(file).equals(torn)).toBe(false);
    const mtime = statSync(file).mtimeMs;
    expect(run(['orgs', 'list', '--json', '--data', data]).status).toBe(0);
    expect(statSync(file).mtimeMs).toBe(mtime);
  });

  it('never reads the cache of another build, and writes none after a run that changed V8 flags (--jq)', () => {
    clear();
    const other = join(cli(), `docs-0000000000000000-${process.version}-${process.arch}.cache`);
    writeFileSync(other, 'not a cache');
    const jq = run(['orgs', 'list', '--data', data, '--jq', '.items | length']);
    expect(jq.status).toBe(0);
    expect(jq.stdout.trim()).toBe('1');
    expect(caches()).toEqual([`docs-0000000000000000-${process.version}-${process.arch}.cache`]);
    expect(run(['orgs', 'list', '--json', '--data', data]).status).toBe(0);
    expect(caches().sort()).toEqual([`docs-0000000000000000-${process.version}-${process.arch}.cache`, cacheName()].sort());
    expect(readFileSync(other, 'utf8')).toBe('not a cache');
  });

  it('loads packages outside the bundle with import() from cached code, with no warning', () => {
    clear();
    expect(run(['orgs', 'list', '--json', '--data', data]).status).toBe(0);
    expect(caches()).toEqual([cacheName()]);
    // Over HTTP: undici, imported when the first request is made.
    const r = run(['orgs', 'list', '--api-url', 'http://127.0.0.1:1', '--token', 'x']);
    expect(r.stderr).toContain('cannot reach http://127.0.0.1:1');
    expect(r.stderr).not.toMatch(/dynamic import callback|ExperimentalWarning|internal error/);
    expect(r.status).toBe(1);
  });
});

describe('the end of a command', () => {
  it('exits once its output is written, not when the event loop runs dry (the code cache still written, the exit code kept)', () => {
    // Something left running in the process (here a timer a preloaded module keeps) no longer
    // holds the command: nor do V8's background compiles, which Node waits for at a natural end.
    const keep = join(tempDir(), 'keep-alive.cjs');
    writeFileSync(keep, 'setInterval(() => {}, 1000);\n');
    clear();
    const env = { NODE_OPTIONS: `--require ${keep}` };
    const started = Date.now();
    const ok = runWith(['spaces', 'list', '--json', '--data', data], env);
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout).items).toBeDefined();
    expect(caches()).toEqual([cacheName()]);
    const bad = runWith(['spaces', 'get', 'nope', '--data', data], env);
    expect(bad.status).toBe(3);
    expect(bad.stderr).toContain('not found');
    expect(Date.now() - started).toBeLessThan(25_000);
  });
});
