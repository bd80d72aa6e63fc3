#!/usr/bin/env node
'use strict';
// The `docs` command (package.json "bin"). CommonJS on purpose: Node reads an ES module entry
// through libuv's thread pool (fs/promises), which fixes the pool's size before the entry's first
// line runs; a CommonJS entry is read synchronously, so `docs serve` can still size it (below).
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  // Answered without loading oclif: CI scripts and shells call it often.
  const { readFileSync } = require('node:fs');
  const pkg = JSON.parse(readFileSync(require('node:path').join(__dirname, '..', 'package.json'), 'utf8'));
  process.stdout.write(`docs/${pkg.version} ${process.platform}-${process.arch} node-${process.version}\n`);
} else {
  // NO_COLOR set to anything, even empty, means no color (commands/_lib/color.ts); oclif's colors
  // (ansis, read when the bundle loads) obey only a non-empty one.
  if (process.env.NO_COLOR === '') process.env.NO_COLOR = '1';
  // docs serve: a commit writes and fsyncs the files of the shards it touches through the pool,
  // and commits to many spaces run side by side; with libuv's default of 4 threads they queue
  // behind each other's fsyncs. Writes spread over 64 spaces / one space: 0.37–0.57 with 4,
  // 1.03–1.98 with 16 (bench/cold.mjs). A size the user set is kept (empty: libuv would run 1).
  if (argv[0] === 'serve' && !process.env.UV_THREADPOOL_SIZE) process.env.UV_THREADPOOL_SIZE = '16';
  // The bundled CLI (scripts/build-bundle.mjs): oclif and the commands in one file, compiled from
  // V8's code cache (bin/cli-bundle.cjs).
  require('./cli-bundle.cjs').run();
}
