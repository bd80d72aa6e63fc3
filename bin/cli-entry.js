// The entry of the bundled CLI (scripts/build-bundle.mjs -> dist/cli/run.js): oclif's execute, the
// root being the package (one level above bin/).
import { execute } from '@oclif/core/execute';

await execute({ dir: new URL('../bin/run.js', import.meta.url).href });
