// Writes oclif.manifest.json (every command with its flags and args) so that running one command
// loads only that command's file, not all of them. Same content as `oclif manifest`, without
// installing the oclif packaging tool.
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Config } from '@oclif/core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const file = join(root, 'oclif.manifest.json');
rmSync(file, { force: true });
const config = await Config.load(root);
const plugin = config.plugins.get(config.pjson.name);
const manifest = plugin.manifest;
writeFileSync(file, JSON.stringify(manifest, null, 2));
console.log(`manifest: ${Object.keys(manifest.commands).length} commands`);
