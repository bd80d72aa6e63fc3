// Bundles the CLI into one CommonJS file, dist/cli/docs.cjs: oclif and its dependencies, every
// command and the code they share. bin/cli-bundle.cjs loads it with V8's code cache, and oclif
// finds the commands in it (package.json oclif.commands: strategy "explicit", COMMANDS).
//
// Why one file, and why CommonJS (figures: `spaces list --json` on 100 spaces / `node -e 0`):
// - node loads ~430 small files for one in-process command from node_modules (3.8x); bundled
//   with esbuild as ESM, split into chunks, it loaded ~60 (3.3x), and each ESM module costs the
//   loader its resolution, an async read and a compile, ~0.5 ms apiece here.
// - A script can be compiled from V8's code cache (vm.Script cachedData), an ES module cannot
//   on Node 20 (module.enableCompileCache is Node 22). With the cache nothing is parsed at start.
// Nothing runs that a command does not use: each module is wrapped by esbuild in a lazy
// initializer, run when first required (each COMMANDS entry is a getter requiring its command).
// Other packages stay external, loaded from node_modules when used (ESM-only ones by require(),
// which Node has without a flag since 20.19: package.json engines); dist/src stays the code the
// server and tests use.
import { createHash } from 'node:crypto';
import { build } from 'esbuild';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const commands = join(root, 'dist', 'commands');
const files = (d) =>
  readdirSync(d, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name.startsWith('_') ? [] : files(join(d, e.name))) : e.name.endsWith('.js') ? [join(d, e.name)] : [],
  );
const ids = files(commands)
  .map((f) => [relative(commands, f).slice(0, -3).split(/[\\/]/).join(':'), f])
  .sort(([a], [b]) => (a < b ? -1 : 1));

// The bundle's entry: run() (oclif's execute, the root being the package), the commands by id,
// and the command_not_found hook (package.json oclif.hooks).
const entry = `
import { Config, Plugin } from '@oclif/core/config';
import { execute } from '@oclif/core/execute';

// \`named\`: the command argv names (bin/cli-bundle.cjs, from dist/cli/commands.json), with the
// package's root and package.json. oclif then loads a plugin of that one command (its public
// options: \`plugins\`, \`ignoreManifest\`, an explicit strategy naming bin/cli-bundle.cjs's NAMED,
// which holds only it) instead of the manifest of all of them: no 600 KB of JSON to parse, no
// command list and topics of ~400 commands to build, at every start.
async function namedConfig({ root, pjson }) {
  const one = { ...pjson, oclif: { ...pjson.oclif, commands: { ...pjson.oclif.commands, identifier: 'NAMED' } } };
  const plugin = new Plugin({ root, isRoot: true, pjson: one, ignoreManifest: true, respectNoCacheDefault: true });
  await plugin.load();
  return Config.load({ root, pjson: one, plugins: new Map([[plugin.name, plugin]]) });
}

export async function run(named) {
  const config = named ? await namedConfig(named) : await Config.load(new URL('../../bin/run.js', import.meta.url).href);
  // scripts/build-manifest.mjs writes the global flags once (\`globalFlags\`) instead of on every
  // command: each command that had them gets the same definitions back (shared objects, no copy).
  for (const plugin of config.plugins.values()) {
    const globals = plugin.manifest?.globalFlags;
    if (!globals) continue;
    for (const command of plugin.commands) for (const name of command.globalFlags ?? []) command.flags[name] = globals[name];
  }
  await execute({ loadOptions: config });
}

export const COMMANDS = {};
${ids.map(([id, f]) => `Object.defineProperty(COMMANDS, ${JSON.stringify(id)}, { enumerable: true, get: () => require(${JSON.stringify(f)}).default });`).join('\n')}

export const notFound = (opts) => require(${JSON.stringify(join(commands, '_hooks', 'not-found.js'))}).default(opts);
`;

const outdir = join(root, 'dist', 'cli');
rmSync(outdir, { recursive: true, force: true });
const outfile = join(outdir, 'docs.cjs');
// Small pure-JS packages that everyday in-process commands load: bundled, as each package loaded
// from node_modules costs its own resolution (package.json "exports") and load.
// mdast-util-from-markdown (the markdown parser: ~80 ES modules of micromark): loaded by every
// push that changes a page, on both sides (the CLI's comparison, the server's conversion of the
// body); from node_modules it was ~40 ms of a one-line push (resolving and compiling each ES
// module, none from the code cache), bundled it is lazy initializers in the cached bundle.
const BUNDLED = new Set(['lowdb', 'env-paths', 'jsep', 'mdast-util-from-markdown']);
const packageOf = (spec) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');
const insideNodeModules = (importer) => /node_modules[\\/]/.test(importer);
const LAZY_BUILTINS = new Set(['node:child_process', 'node:readline', 'node:fs/promises']);
// A builtin's exports, required when a property is first read. `__esModule` is answered without
// loading it: esbuild's and tsc's interop helpers ask for it at the importer's top.
const lazyBuiltin = (id) => `
let loaded;
const real = () => (loaded ??= require(${JSON.stringify(id)}));
module.exports = new Proxy({}, {
  get: (_, key) => (key === '__esModule' ? undefined : real()[key]),
  has: (_, key) => key in real(),
  ownKeys: () => Reflect.ownKeys(real()),
  getOwnPropertyDescriptor: (_, key) => {
    const d = Object.getOwnPropertyDescriptor(real(), key);
    return d && { ...d, configurable: true };
  },
});
`;
await build({
  stdin: { contents: entry, resolveDir: join(root, 'dist'), sourcefile: 'cli-entry.js', loader: 'js' },
  outfile,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  // Less text to read and scan at every start (the machine reads ~250 MB/s): no whitespace or
  // comments, simpler syntax. Identifiers stay, so stack traces and class names read as the
  // source (and no keepNames: its __name() calls would break functions shipped to a worker as
  // text, src/search/worker.ts).
  minifyWhitespace: true,
  minifySyntax: true,
  // One URL for every module of the bundle: the bundle's own (dist/cli/docs.cjs), as each chunk's
  // was before; the code using it (kernel/root.ts, createRequire) only needs its folder.
  define: { 'import.meta.url': '__bundleUrl' },
  banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  // oclif's TypeScript support (ts-node, tsx, typescript) is for plugins in development: not ours.
  external: ['typescript', 'ts-node', 'tsx'],
  plugins: [
    {
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
        b.onResolve({ filter: /\/ajv-provider\.js$/ }, (a) =>
          /@modelcontextprotocol/.test(a.importer) ? { path: 'ajv-provider', namespace: 'mcp-stub' } : null,
        );
        b.onLoad({ filter: /.*/, namespace: 'mcp-stub' }, () => ({
          contents: 'export class AjvJsonSchemaValidator { constructor() { throw new Error("bundled docs mcp: pass a jsonSchemaValidator"); } }',
        }));
        // commands/_lib/markdown-parser.ts loads the parser synchronously with a require() made by
        // createRequire (an ES module has no require): in the bundle, the bundle's own require,
        // which esbuild resolves to the bundled package (a lazy initializer, run on first call).
        b.onLoad({ filter: /[\\/]dist[\\/]commands[\\/]_lib[\\/]markdown-parser\.js$/ }, async (a) => {
          const source = await readFile(a.path, 'utf8');
          const made = 'const require = createRequire(import.meta.url);';
          if (!source.includes(made)) throw new Error(`${a.path}: no \`${made}\` to bundle the parser through`);
          return { contents: source.replace(made, ''), loader: 'js' };
        });
        // oclif's modules require Node builtins at their top that a command run rarely uses
        // (child_process to find a shell, readline for an argument read from stdin, fs/promises
        // for tsconfig files): Node compiles each on its first require, ~8 ms of every command's
        // start with the one below. Each is required on first use instead, through a proxy (oclif
        // reads them as `(0, m.fn)(...)`).
        b.onResolve({ filter: /^node:/ }, (a) =>
          LAZY_BUILTINS.has(a.path) && /@oclif[\\/]core[\\/]/.test(a.importer) ? { path: a.path, namespace: 'lazy-builtin' } : null,
        );
        b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (a) => ({ contents: lazyBuiltin(a.path), loader: 'js' }));
        // Config.load asks wsl-utils only whether this is WSL (util/os.js getPlatform); the package's
        // top requires child_process (~6 ms) for what only getShell uses, on Windows' side. oclif
        // gets is-wsl's answer, and the rest of wsl-utils when it asks for it.
        b.onResolve({ filter: /^wsl-utils$/ }, (a) =>
          /@oclif[\\/]core[\\/]lib[\\/]util[\\/]os\.js$/.test(a.importer) ? { path: join(dirname(a.importer), 'wsl-only.js'), namespace: 'wsl-only' } : null,
        );
        b.onLoad({ filter: /.*/, namespace: 'wsl-only' }, (a) => ({
          contents:
            "export { default as isWsl } from 'is-wsl';\nexport const powerShellPath = (...args) => import('wsl-utils').then((m) => m.powerShellPath(...args));\n",
          resolveDir: dirname(a.path),
          loader: 'js',
        }));
        b.onResolve({ filter: /^[^./]/ }, (a) => {
          if (a.path.startsWith('node:')) return { external: true };
          if (a.path === '@oclif/core' || a.path.startsWith('@oclif/core/')) return null; // bundled
          if (a.path.startsWith('@modelcontextprotocol/sdk/')) return null; // bundled (see above)
          if (insideNodeModules(a.importer)) return null; // dependencies of what is bundled: bundled with it
          if (BUNDLED.has(packageOf(a.path))) return null;
          return { external: true }; // our other packages: from node_modules, as before
        });
      },
    },
  ],
});

// Every import() left in the bundle (esbuild has made those of bundled files lazy initializers)
// loads something outside it at run time: a package left external (ESM ones, when used) or a
// file oclif loads by path. Each becomes __docsImport(), bin/cli-bundle.cjs's own import(): node
// gives a script compiled from a code cache no import() ("A dynamic import callback was not
// specified"), and vm's importModuleDynamically is experimental (a warning on stderr).
// `import()` with nothing inside is oclif's error message text, left alone.
// Every character above ASCII (in regular expressions and template literals, where esbuild keeps
// them) becomes its \u escape: an ASCII file is decoded as latin1, twice as fast as UTF-8.
// The first line names the build (a hash of the rest): bin/cli-bundle.cjs keys its code cache by
// it, since V8 checks a cache against the source's length only.
const body = readFileSync(outfile, 'utf8')
  .replace(/\bimport\((?!\))/g, '__docsImport(')
  .replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
writeFileSync(outfile, `// docs CLI bundle ${hash}\n${body}`);
console.log(`bundle: ${ids.length} commands, ${(body.length / 1e6).toFixed(1)} MB, build ${hash}`);
