// Bundles the CLI (bin entry + one entry per command, shared code split into chunks) into
// dist/cli/, with @oclif/core and its dependencies inside: node loads ~430 small files for one
// in-process command otherwise, and resolving/reading them is most of a command's start
// (`spaces list` on 100 spaces: 3.8x -> 3.3x `node -e 0`). Other packages stay external (loaded
// from node_modules as before); dist/src stays the code the server and tests use.
import { build } from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const commands = join(root, 'dist', 'commands');
const files = (d) => readdirSync(d, { withFileTypes: true }).flatMap((e) =>
  e.isDirectory() ? (e.name.startsWith('_') ? [] : files(join(d, e.name))) : e.name.endsWith('.js') ? [join(d, e.name)] : []);
const entryPoints = {
  run: join(root, 'bin', 'cli-entry.js'),
  // oclif hooks (package.json oclif.hooks), loaded only when their event happens.
  'hooks/not-found': join(commands, '_hooks', 'not-found.js'),
  ...Object.fromEntries(files(commands).map((f) => ['commands/' + relative(commands, f).slice(0, -3), f])),
};
const outdir = join(root, 'dist', 'cli');
rmSync(outdir, { recursive: true, force: true });
// Small pure-JS packages that everyday in-process commands load: bundled, as each package loaded
// from node_modules costs the ESM loader its own resolution (package.json "exports") and load,
// ~4 ms apiece (lowdb + env-paths + jsep: 11.5 ms of `spaces list`'s 330).
const BUNDLED = new Set(['lowdb', 'env-paths', 'jsep']);
const packageOf = (spec) => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');
const insideOclif = (importer) => /node_modules[\\/]/.test(importer);
await build({
  entryPoints,
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  // oclif is CommonJS: its require() calls need a require in the ESM chunks.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  // oclif's TypeScript support (ts-node, tsx, typescript) is for plugins in development: not ours.
  external: ['typescript', 'ts-node', 'tsx'],
  plugins: [{
    name: 'only-oclif-inside',
    setup(b) {
      // oclif sorts the manifest's commands with localeCompare at every start: the first call
      // builds ICU's collator (~9 ms of a 270 ms command). Our ids are ASCII (a-z, 0-9, ':', '-'),
      // for which a code-unit comparison is enough.
      b.onLoad({ filter: /@oclif[\\/]core[\\/]lib[\\/]config[\\/]plugin\.js$/ }, async (a) => {
        const source = await readFile(a.path, 'utf8');
        const sorted = '.sort((a, b) => a.id.localeCompare(b.id))';
        if (!source.includes(sorted)) return null; // another oclif version: leave it as it is
        return { contents: source.replace(sorted, '.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))'), loader: 'js' };
      });
      // The MCP SDK (docs mcp) is bundled too: ~150 small ESM files with zod. Its default JSON
      // Schema validator (ajv, for elicitation) is never used (src/mcp/server.ts passes its own):
      // a stub instead of loading ajv at every `docs mcp` start.
      b.onResolve({ filter: /\/ajv-provider\.js$/ }, (a) => (/@modelcontextprotocol/.test(a.importer) ? { path: 'ajv-provider', namespace: 'mcp-stub' } : null));
      b.onLoad({ filter: /.*/, namespace: 'mcp-stub' }, () => ({ contents: 'export class AjvJsonSchemaValidator { constructor() { throw new Error("bundled docs mcp: pass a jsonSchemaValidator"); } }' }));
      b.onResolve({ filter: /^[^./]/ }, (a) => {
        if (a.path.startsWith('node:')) return { external: true };
        if (a.path === '@oclif/core' || a.path.startsWith('@oclif/core/')) return null; // bundled
        if (a.path.startsWith('@modelcontextprotocol/sdk/')) return null; // bundled (see above)
        if (insideOclif(a.importer)) return null; // oclif's own dependencies: bundled with it
        if (BUNDLED.has(packageOf(a.path))) return null;
        return { external: true }; // our other packages: from node_modules, as before
      });
    },
  }],
});
