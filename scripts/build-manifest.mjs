// Writes oclif.manifest.json (every command with its flags and args) so that running one command
// loads only that command's file, not all of them. Same content as `oclif manifest`, without
// installing the oclif packaging tool.
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Config } from '@oclif/core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const file = join(root, 'oclif.manifest.json');
const GLOBAL_FLAGS = ['api-url', 'token', 'data', 'profile', 'jq', 'store'];
rmSync(file, { force: true });
const config = await Config.load(root);
const plugin = config.plugins.get(config.pjson.name);
const manifest = plugin.manifest;
// Every command repeats the same global flags (--api-url, --token, ...): two thirds of the file,
// parsed at every start. They are written once, as `globalFlags`, and put back on each command
// by run() in the bundle (scripts/build-bundle.mjs) after oclif loads the manifest (help and completion still list them).
// Without indentation: whitespace is a third of the rest.
const globalFlags = {};
for (const name of GLOBAL_FLAGS) {
  const defs = Object.values(manifest.commands)
    .map((c) => c.flags?.[name])
    .filter(Boolean);
  globalFlags[name] = defs[0];
}
for (const c of Object.values(manifest.commands)) {
  for (const name of GLOBAL_FLAGS) {
    if (c.flags?.[name] && JSON.stringify(c.flags[name]) === JSON.stringify(globalFlags[name])) {
      delete c.flags[name];
      (c.globalFlags ??= []).push(name);
    }
  }
}
writeFileSync(file, JSON.stringify({ ...manifest, globalFlags }));
// dist/cli/commands.json: each command id -> 1 when it takes arguments (not strict, or args),
// else 0. bin/cli-bundle.cjs finds from it the command argv names, as oclif would (its
// collateSpacedCmdIDFromArgs), and has oclif load that one only (scripts/build-bundle.mjs).
const named = {};
for (const [id, c] of Object.entries(manifest.commands)) named[id] = c.strict === false || Object.keys(c.args ?? {}).length > 0 ? 1 : 0;
writeFileSync(join(root, 'dist', 'cli', 'commands.json'), JSON.stringify(named));
console.log(`manifest: ${Object.keys(manifest.commands).length} commands`);
