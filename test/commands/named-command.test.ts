import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/kernel/root.js';
import { tempDir } from '../helpers/server.js';

// bin/cli-bundle.cjs finds the command argv names (dist/cli/commands.json, written by
// scripts/build-manifest.mjs) and has oclif load that one command, not the manifest of all of them
// (scripts/build-bundle.mjs, run()); that command gets a code cache of its own. The tests run on a
// copy of the built CLI, whose manifest they change, so that nothing else sees it.
const root = packageRoot();
let install: string;
let data: string;
let config: string;

// Asynchronous: a worker blocked in spawnSync for long on a loaded machine misses vitest's calls.
function run(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(install, 'bin', 'run.cjs'), ...args],
      {
        encoding: 'utf8',
        env: { ...process.env, DOCS_API_URL: undefined, DOCS_TOKEN: undefined, DOCS_DATA: undefined, DOCS_CONFIG_DIR: config, NO_COLOR: '1' },
        timeout: 30_000,
      },
      (err, stdout, stderr) => resolve({ status: err ? ((err as any).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const cli = () => join(install, 'dist', 'cli');
const named = join(root, 'dist', 'cli', 'commands.json');
const caches = () => readdirSync(cli()).filter((f) => f.endsWith('.cache'));
const clear = () => caches().forEach((f) => unlinkSync(join(cli(), f)));
/** `run` with and without dist/cli/commands.json (oclif then loads every command, as before). */
async function both(args: string[]) {
  copyFileSync(named, join(cli(), 'commands.json'));
  const fast = await run(args);
  unlinkSync(join(cli(), 'commands.json'));
  const full = await run(args);
  copyFileSync(named, join(cli(), 'commands.json'));
  return { fast, full };
}

beforeAll(async () => {
  install = tempDir();
  data = tempDir();
  config = tempDir();
  mkdirSync(join(install, 'bin'));
  mkdirSync(join(install, 'dist', 'cli'), { recursive: true });
  for (const f of ['bin/run.js', 'bin/run.cjs', 'bin/cli-bundle.cjs', 'package.json', 'oclif.manifest.json', 'dist/cli/docs.cjs', 'dist/cli/commands.json'])
    copyFileSync(join(root, f), join(install, f));
  for (const d of ['node_modules', 'generated']) symlinkSync(join(root, d), join(install, d));
  expect((await run(['orgs', 'list', '--json', '--data', data])).status).toBe(0); // initializes the store
}, 60_000);

describe('a command named by argv', () => {
  it('runs without the manifest of every command', async () => {
    // A manifest without `spaces list`: oclif, reading it, would not know the command.
    const file = join(install, 'oclif.manifest.json');
    const manifest = readFileSync(file, 'utf8');
    const changed = JSON.parse(manifest);
    delete changed.commands['spaces:list'];
    writeFileSync(file, JSON.stringify(changed));
    try {
      const { fast, full } = await both(['spaces', 'list', '--json', '--data', data]);
      expect(full.status).not.toBe(0);
      expect(fast.status).toBe(0);
      expect(JSON.parse(fast.stdout)).toMatchObject({ items: [] });
    } finally {
      writeFileSync(file, manifest);
    }
  }, 60_000);

  // Each case runs the CLI twice: up to a minute on a loaded machine.
  const cases = () => [
    ['spaces', 'list', '--json', '--data', data],
    ['spaces:list', '--json', '--data', data],
    ['orgs', 'list', '--jq', '.items | length', '--data', data],
    ['spaces', 'list', '--bogus', '--data', data],
    ['content', 'push', '--data', data],
    ['content', 'push', join(data, 'nothing-here'), '--space', 'x', '--data', data],
    ['spaces', 'list', '--help'],
    ['spaces', '--data', data],
    ['spaces', 'lst', '--data', data],
    ['help', 'spaces', 'list'],
    ['version'],
  ];
  it.each(Array.from({ length: 11 }, (_, i) => i))(
    'answers as with every command loaded: output, errors, help, topics, unknown commands (case %i)',
    async (i) => {
      const args = cases()[i];
      const { fast, full } = await both(args);
      expect({ args, ...fast }).toEqual({ args, ...full });
    },
    60_000,
  );

  it('has a code cache of its own, named by the command', async () => {
    clear();
    expect((await run(['spaces', 'list', '--json', '--data', data])).status).toBe(0);
    expect((await run(['orgs', 'list', '--json', '--data', data])).status).toBe(0);
    const build = /^\/\/ docs CLI bundle ([0-9a-f]+)\n/.exec(readFileSync(join(cli(), 'docs.cjs'), 'latin1'))![1];
    const name = (id: string) => `docs-${build}-${process.version}-${process.arch}-${id}.cache`;
    expect(caches().sort()).toEqual([name('orgs.list'), name('spaces.list')]);
  }, 60_000);
});
