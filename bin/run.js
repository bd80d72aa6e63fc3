#!/usr/bin/env node
// `docs --version` answers without loading oclif: CI scripts and shells call it often.
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  const { readFileSync } = await import('node:fs');
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`docs/${pkg.version} ${process.platform}-${process.arch} node-${process.version}\n`);
} else {
  // NO_COLOR set to anything, even empty, means no color (commands/_lib/color.ts); oclif's colors
  // (ansis, read when the bundle loads) obey only a non-empty one.
  if (process.env.NO_COLOR === '') process.env.NO_COLOR = '1';
  // The bundled CLI (scripts/build-bundle.mjs): oclif and the commands in one file, compiled from
  // V8's code cache (bin/cli-bundle.cjs).
  const { createRequire } = await import('node:module');
  await createRequire(import.meta.url)('./cli-bundle.cjs').run();
}
