'use strict';
// Loads the bundled CLI (dist/cli/docs.cjs, scripts/build-bundle.mjs) compiled from V8's code
// cache when there is one, as v8-compile-cache does for CommonJS: with the cache V8 parses
// nothing at start and takes the compiled code of every function the cached run used.
// `spaces list --json` on 100 spaces: 2.88x -> 2.42x `node -e 0` with the bundle made one file
// (node bench/run.mjs --cli).
//
// The cache is dist/cli/docs-<build>-<node version>-<arch>.cache: the build's hash (first line of
// the bundle), because V8 checks a cache against the source's length, not its text; the node
// version and architecture, because V8 rejects a cache of another. A run without a usable cache
// writes one as it exits, to a temp file renamed into place (a reader never sees half of one); a
// folder it cannot write to only means no cache.
//
// Each cache starts with the SHA-256 of the rest, checked before V8 is given it: release builds of
// V8 check a cache's header (magic, version, flags, source length) but not its payload, so a cache
// torn by a crash (renamed into place before its data reached the disk) or damaged on disk would
// be run as code, and every command would fail until it was deleted. Checking costs ~1.5 ms a
// start (node:crypto is loaded with Node; zlib's crc32 would cost its module's load as well).
//
// Not Node 22+'s module.enableCompileCache(), measured and kept out on purpose: Node makes its
// cache right after compiling a file, so it holds the top level only (542 KB for this bundle),
// where this one, made as the run ends, holds every function the command ran (1.1 MB).
// `spaces list --json` / `node -e 0`, interleaved in one run: this cache 3.00x, Node's 3.88x, both
// (Node's for the files outside the bundle) 3.08x on Node 22.23; 4.97x, 7.39x, 5.42x on Node 24.21
// (bench/compile-cache.mjs).
const { readdirSync, readFileSync, renameSync, writeFileSync, unlinkSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { isAscii } = require('node:buffer');
const { hash } = require('node:crypto');
const Module = require('node:module');
const vm = require('node:vm');

const file = join(__dirname, '..', 'dist', 'cli', 'docs.cjs');
const named = namedCommand(process.argv.slice(2));
// The build writes ASCII only: decoded as latin1, twice as fast as UTF-8 (isAscii checks it is).
const bytes = readFileSync(file);
const source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
const build = /^\/\/ docs CLI bundle ([0-9a-f]+)\n/.exec(source)?.[1] ?? 'unknown';
// A command named by argv has a cache of its own (at most MAX_CACHES of them): the code that
// command runs, and nothing that others do (a cache holding more is slower to read).
const MAX_CACHES = 32;
const cacheFile = join(dirname(file), `docs-${build}-${process.version}-${process.arch}${named ? `-${named.id.replaceAll(':', '.')}` : ''}.cache`);

const SUM = 32; // the SHA-256 before the cache
let cachedData;
let damaged = false;
try {
  const kept = readFileSync(cacheFile);
  const data = kept.subarray(SUM);
  if (kept.length > SUM && hash('sha256', data, 'buffer').equals(kept.subarray(0, SUM))) cachedData = data;
  else damaged = true; // written again at exit, as a missing one
} catch {
  // no cache yet
}
// CommonJS's wrapper, and __docsImport: the bundle's import() of packages outside it (ESM ones,
// loaded when used) is this file's (scripts/build-bundle.mjs rewrites the calls).
const wrapped = `(function (exports, require, module, __filename, __dirname, __docsImport) {${source}\n})`;
const script = new vm.Script(wrapped, { filename: file, cachedData });
// The bundle's `module`: only its exports are used (require is createRequire's, by file path).
const bundle = new Module(file, module);
script.runInThisContext().call(bundle.exports, bundle.exports, Module.createRequire(file), bundle, file, dirname(file), (specifier) => import(specifier));

// Written after a command ran (run()), not when oclif only reads COMMANDS (the manifest's build
// loads every command: a cache of all of them is slower to read for each one). Not after a run
// that changed V8's flags (commands/_lib/jq.ts sets SKIP): V8 would reject that cache.
const SKIP = Symbol.for('docs.codeCache.skip');
let armed = false;
function writeCacheAtExit() {
  if (armed || (cachedData && !script.cachedDataRejected)) return;
  armed = true;
  process.once('exit', () => {
    if (globalThis[SKIP]) return;
    if (named && !cachedData && !damaged && !roomForCache()) return;
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    try {
      const data = script.createCachedData();
      writeFileSync(tmp, Buffer.concat([hash('sha256', data, 'buffer'), data]));
      renameSync(tmp, cacheFile);
    } catch {
      try {
        unlinkSync(tmp);
      } catch {
        // nothing was written
      }
    }
  });
}

/** Whether fewer than MAX_CACHES caches of this build are there (a new one may be written). */
function roomForCache() {
  try {
    const prefix = `docs-${build}-`;
    return readdirSync(dirname(file)).filter((f) => f.startsWith(prefix) && f.endsWith('.cache')).length < MAX_CACHES;
  } catch {
    return false;
  }
}

/**
 * The command argv names, found as oclif finds it (@oclif/core's collateSpacedCmdIDFromArgs, the
 * topic separator being a space) among the ids of dist/cli/commands.json (scripts/build-manifest.mjs),
 * with the package's root and package.json: oclif then loads only that command (run(),
 * scripts/build-bundle.mjs). Undefined, and oclif loads them all as before, for no command, an
 * unknown one (its suggestions need them all), help (`--help`, `help`) and --version, and the
 * commands that read the others (`help`, `__complete`); or when a file is missing.
 */
function namedCommand(argv) {
  if (argv.length === 0 || argv[0] === '--version' || argv[0].startsWith('_') || argv[0] === 'help') return undefined;
  for (const a of argv) {
    if (a === '--') break;
    if (a === '--help') return undefined;
  }
  let ids;
  let pjson;
  const root = join(__dirname, '..');
  try {
    ids = JSON.parse(readFileSync(join(root, 'dist', 'cli', 'commands.json'), 'utf8'));
    pjson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  } catch {
    return undefined;
  }
  const takesArgs = (id) => Object.hasOwn(ids, id) && ids[id] === 1;
  let id;
  if (argv[0].includes(':') || argv.length === 1) id = argv[0];
  else {
    // A prefix of an id (topics included), as oclif's collectUsableIds: asked of the ids for the
    // few words of argv, rather than every prefix of ~400 ids made into a set at each start.
    const known = Object.keys(ids);
    const usable = (p) => Object.hasOwn(ids, p) || known.some((k) => k.startsWith(`${p}:`));
    const final = [];
    const with_ = (s) => [...final, s].join(':');
    for (const a of argv) {
      if (usable(with_(a))) final.push(a);
      else if (a.includes('=') || a.startsWith('-') || (final.length > 0 && takesArgs(final.join(':')))) break;
      else final.push(a);
    }
    id = final.join(':');
  }
  return Object.hasOwn(ids, id) && !id.startsWith('_') && id !== 'help' ? { id, root, pjson } : undefined;
}

// NAMED: the command argv names, alone (package.json's oclif.commands names it for that run).
const NAMED = {};
if (named) Object.defineProperty(NAMED, named.id, { enumerable: true, get: () => bundle.exports.COMMANDS[named.id] });

module.exports = {
  COMMANDS: bundle.exports.COMMANDS,
  NAMED,
  notFound: bundle.exports.notFound,
  /** Runs the command of process.argv (oclif's execute), then exits once its output is written. */
  run() {
    writeCacheAtExit();
    return bundle.exports.run(named && { root: named.root, pjson: named.pjson }).then(exitWhenWritten);
  },
};

/**
 * The command is done (a server or an MCP session returns only when it stops) and has released
 * what it held: exit once stdout and stderr are written, rather than when the event loop runs
 * dry. Node then first waits for V8's background jobs, above all the optimizing compiles of
 * functions the command made hot, which it no longer needs: 20 ms after a no-op push of 1,000
 * pages on an idle machine, ~100 ms at a load of 12. `exit` handlers still run (the code cache).
 */
function exitWhenWritten() {
  const pending = [process.stdout, process.stderr].filter((s) => s.writableLength > 0);
  if (pending.length === 0) return process.exit();
  Promise.all(pending.map((s) => new Promise((resolve) => s.once('drain', resolve)))).then(() => process.exit());
}
