// Does Node 22+'s module.enableCompileCache() do the job of bin/cli-bundle.cjs's own V8 code cache?
// Times `docs spaces list --json` against `node -e 0` on three copies of the built CLI, runs
// interleaved: (A) the CLI as it is, (B) a loader that only calls module.enableCompileCache() and
// require()s the bundle, (C) the CLI as it is plus module.enableCompileCache() for the files
// outside the bundle. Needs a build (npm run build); on Node 20, (A) only.
//   node bench/compile-cache.mjs [runs]            on this Node
//   bash scripts/node24/test.sh node bench/compile-cache.mjs    on Node 24
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Module from 'node:module';

// Node 20 has no module.enableCompileCache: the CLI as it is only.
const NODE_CACHE = typeof Module.enableCompileCache === 'function';
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.argv[2] ?? 15);
const temps = [];
const temp = (p) => {
  const d = mkdtempSync(join(tmpdir(), p));
  temps.push(d);
  return d;
};

const loader = readFileSync(join(ROOT, 'bin', 'cli-bundle.cjs'), 'utf8');
const anchor = "const file = join(__dirname, '..', 'dist', 'cli', 'docs.cjs');";
if (!loader.includes(anchor)) throw new Error('bin/cli-bundle.cjs changed: update this bench');
const nodeOnly = `'use strict';
const { dirname, join } = require('node:path');
const Module = require('node:module');
${anchor}
Module.enableCompileCache(join(dirname(file), 'compile-cache'));
globalThis.__docsImport = (specifier) => import(specifier);
const bundle = require(file);
module.exports = { COMMANDS: bundle.COMMANDS, notFound: bundle.notFound, run: () => bundle.run() };
`;
const both = loader.replace(anchor, `${anchor}\nModule.enableCompileCache(join(dirname(file), 'compile-cache'));`);

function install(text) {
  const d = temp('docs-cc-');
  mkdirSync(join(d, 'bin'));
  mkdirSync(join(d, 'dist', 'cli'), { recursive: true });
  for (const f of ['bin/run.js', 'package.json', 'oclif.manifest.json', 'dist/cli/docs.cjs']) copyFileSync(join(ROOT, f), join(d, f));
  writeFileSync(join(d, 'bin', 'cli-bundle.cjs'), text);
  for (const x of ['node_modules', 'generated']) symlinkSync(join(ROOT, x), join(d, x));
  return d;
}

try {
  const variants = { 'hand-made cache (as shipped)': install(loader) };
  if (NODE_CACHE) Object.assign(variants, { 'enableCompileCache only': install(nodeOnly), both: install(both) });
  const data = temp('docs-cc-data-');
  const env = { ...process.env, DOCS_CONFIG_DIR: temp('docs-cc-cfg-'), DOCS_API_URL: '', DOCS_TOKEN: '' };
  delete env.NODE_COMPILE_CACHE;
  delete env.NODE_DISABLE_COMPILE_CACHE;
  const time = (args) => {
    const start = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${args.join(' ')}: ${r.stderr}`);
    return Number(process.hrtime.bigint() - start) / 1e6;
  };
  const command = (d) => [join(d, 'bin', 'run.js'), 'spaces', 'list', '--json', '--data', data];
  // The first runs make the store and write each variant's cache.
  for (const d of Object.values(variants)) for (let i = 0; i < 2; i++) time(command(d));
  const times = { base: [], ...Object.fromEntries(Object.keys(variants).map((k) => [k, []])) };
  for (let i = 0; i < RUNS; i++) {
    times.base.push(time(['-e', '0']));
    for (const [k, d] of Object.entries(variants)) times[k].push(time(command(d)));
  }
  const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
  const base = median(times.base);
  console.log(`CLI start (spaces list --json) / node -e 0 on node ${process.version}, median of ${RUNS} interleaved runs (node -e 0: ${base.toFixed(0)} ms):`);
  for (const k of Object.keys(variants)) console.log(`  ${k}: ${(median(times[k]) / base).toFixed(2)}x`);
} finally {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
}
