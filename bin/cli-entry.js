// The entry of the bundled CLI (scripts/build-bundle.mjs -> dist/cli/run.js): oclif's execute, the
// root being the package (one level above bin/).
import { Config } from '@oclif/core/config';
import { execute } from '@oclif/core/execute';

const config = await Config.load(new URL('../bin/run.js', import.meta.url).href);
// scripts/build-manifest.mjs writes the global flags once (`globalFlags`) instead of on every
// command: each command that had them gets the same definitions back (shared objects, no copy).
for (const plugin of config.plugins.values()) {
  const globals = plugin.manifest?.globalFlags;
  if (!globals) continue;
  for (const command of plugin.commands) for (const name of command.globalFlags ?? []) command.flags[name] = globals[name];
}
await execute({ loadOptions: config });
