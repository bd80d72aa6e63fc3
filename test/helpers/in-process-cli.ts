import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { formatWithOptions } from 'node:util';
import { Config, Plugin } from '@oclif/core/config';
import { helpAddition, versionAddition } from '@oclif/core/run';
import { loadHelpClass, normalizeArgv } from '@oclif/core/help';
import { ux } from '@oclif/core/ux';
import { createRequire } from 'node:module';
import { handle, Exit } from '@oclif/core/handle';
import { settings } from '@oclif/core/settings';
import { packageRoot } from '../../src/kernel/root.js';
import { exclusive } from './exclusive.js';

// The CLI inside the test process, from the SOURCE: commands/*.ts imported through vitest (vite's
// transform), never dist/, so a stale build cannot test old code. As @oclif/test's runCommand: one
// oclif Config per module graph (per test file, or per worker where files share one), each command
// run as oclif's run(argv, config) does (runWith below), its stdout/stderr captured, its exit code taken from what it
// set (process.exitCode) or threw (oclif's handle, as bin/run.js's execute() ends), the call's
// environment applied for the run and restored after it. Runs are one at a time (output capture
// and process.env are global): calls made together wait for each other.
//
// How oclif finds commands that only vite can load: the package's discovery is "explicit" (a
// COMMANDS object in the bundle, package.json oclif.commands). The root plugin is built here with
// that object already in its cache (Plugin.commandCache, which loadCommandsFromTarget returns when
// set), filled with the classes imported from commands/, and handed to Config.load as a loaded
// plugin (Options.plugins). Its manifest is made from those classes (ignoreManifest), not read from
// oclif.manifest.json (a build output). The command_not_found hook (package.json: in the bundle) is
// the source one too.

export interface RunResult {
  status: number;
  stdout: string;
  stderr: string;
}

const root = packageRoot();

/** Command ids from the files under commands/, as scripts/build-bundle.mjs names them. */
function commandFiles(): [id: string, file: string][] {
  const dir = join(root, 'commands');
  const walk = (d: string): string[] =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? (e.name.startsWith('_') ? [] : walk(join(d, e.name))) : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [join(d, e.name)] : [],
    );
  return walk(dir)
    .map((f) => [relative(dir, f).slice(0, -3).split(sep).join(':'), f] as [string, string])
    .sort(([a], [b]) => (a < b ? -1 : 1));
}

let loading: Promise<Config> | undefined;

/** The Config of this module graph, loaded on first use. */
export function sourceConfig(): Promise<Config> {
  return (loading ??= load());
}

async function load(): Promise<Config> {
  // No ts-node lookups (oclif would warn that it cannot transpile ESM on Node 20): vite does it.
  settings.enableAutoTranspile = false;
  const files = commandFiles();
  const classes = await Promise.all(files.map(async ([, f]) => (await import(/* @vite-ignore */ f)).default));
  const COMMANDS = Object.fromEntries(files.map(([id], i) => [id, classes[i]]));
  const notFound = (await import('../../commands/_hooks/not-found.js')).default;
  const pjson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  // bin/run.js answers -v as --version.
  pjson.oclif = { ...pjson.oclif, hooks: {}, additionalVersionFlags: ['-v'] };
  const plugin = new Plugin({ isRoot: true, root, pjson, ignoreManifest: true, errorOnManifestCreate: true });
  (plugin as unknown as { commandCache: unknown }).commandCache = COMMANDS;
  await plugin.load();
  const config = await Config.load({ root, pjson, plugins: new Map([[plugin.name, plugin]]) });
  const runHook = config.runHook.bind(config);
  config.runHook = (async (event: string, opts: Record<string, unknown>, ...rest: unknown[]) => {
    if (event !== 'command_not_found') return (runHook as any)(event, opts, ...rest);
    try {
      return { successes: [{ plugin, result: await notFound({ ...opts, config } as any) }], failures: [] };
    } catch (error) {
      return { successes: [], failures: [{ plugin, error }] };
    }
  }) as Config['runHook'];
  // oclif's help writes ids and aliases with the topic separator INTO the command entries it shows
  // (help/index.js formatCommand, formatCommands: harmless in a process that then ends): put back
  // after each run (runOne), or the next run finds no `spaces:list`.
  const entries = plugin.commands.map((c) => [c, c.id, c.aliases] as const);
  restoreIds = () => {
    for (const [c, id, aliases] of entries) Object.assign(c, { id, aliases });
    for (const [id, cls] of Object.entries(COMMANDS)) (cls as { id: string }).id = id;
  };
  return config;
}

let restoreIds = () => {};

// oclif's cache (lib/cache.js, not exported): handle() reads the config from it to print a
// command's help after a parse error, as main.run() leaves it.
const oclifCache = createRequire(import.meta.url)(join(dirname(createRequire(import.meta.url).resolve('@oclif/core/package.json')), 'lib', 'cache.js')).default;

/**
 * oclif's main.run(argv, config) without its first step, Config.load(config), which makes a new
 * Config from the given one at every run (and loses what load() set on it): the rest as it is.
 */
async function runWith(config: Config, argv: string[]): Promise<unknown> {
  oclifCache.getInstance().set('config', config);
  const [id = '', ...rest] = normalizeArgv(config, argv);
  const showHelp = async (words: string[]) => {
    const Help = await loadHelpClass(config);
    await new Help(config, config.pjson.oclif.helpOptions ?? (config.pjson as any).helpOptions).showHelp(words);
  };
  await config.runHook('init', { argv: rest, id });
  if (versionAddition(argv, config)) return void ux.stdout(config.userAgent);
  if (helpAddition(argv, config)) return showHelp(argv);
  const cmd = config.findCommand(id);
  if (!cmd && !config.flexibleTaxonomy && config.findTopic(id)) return showHelp([id]);
  let error: Error | undefined;
  try {
    return await config.runCommand(id, rest, cmd);
  } catch (err) {
    error = err as Error;
    throw err;
  } finally {
    await config.runHook('finally', { argv: rest, Command: cmd as any, error, id });
  }
}

/** Runs one `docs` command in this process (see above); `env`: variables set (undefined: removed) for the run. */
/**
 * Node's warning that it closed a file handle nobody closed, when the garbage collector took it
 * (Node 24 writes one a handle): of a handle another test of this worker left open (a store it
 * never closed), collected while this command ran, not the command's output. A command run as a
 * process (docsProcess) would show its own.
 */
const foreignWarning = (text: string) =>
  /^\(node:\d+\) Warning: Closing file descriptor \d+ on garbage collection\n$/.test(text) ||
  /^\(Use `node --trace-warnings \.\.\.` to show where the warning was created\)\n$/.test(text);

export function runInProcess(args: string[], env: Record<string, string | undefined> = {}): Promise<RunResult> {
  return exclusive(() => runOne(args, env));
}

async function runOne(args: string[], env: Record<string, string | undefined>): Promise<RunResult> {
  const config = await sourceConfig();
  let stdout = '';
  let stderr = '';
  const text = (chunk: unknown, encoding?: unknown) =>
    typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString(typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  const capture = (to: 'out' | 'err') =>
    ((chunk: unknown, encoding?: unknown, cb?: unknown) => {
      if (to === 'out') stdout += text(chunk, encoding);
      else if (!foreignWarning(text(chunk, encoding))) stderr += text(chunk, encoding);
      const done = typeof encoding === 'function' ? encoding : cb;
      if (typeof done === 'function') queueMicrotask(done as () => void);
      return true;
    }) as typeof process.stdout.write;
  const line = (args: unknown[]) => formatWithOptions({ colors: false }, ...(args as [unknown, ...unknown[]])) + '\n';

  const savedEnv = { ...process.env };
  const saved = {
    out: process.stdout.write,
    err: process.stderr.write,
    console: { log: console.log, info: console.info, debug: console.debug, error: console.error, warn: console.warn },
    exit: Exit.exit,
    processExit: process.exit,
    argv: process.argv,
    drain: process.stdout.listeners('drain'),
  };
  for (const [k, v] of Object.entries({ DOCS_API_URL: undefined, DOCS_TOKEN: undefined, DOCS_DATA: undefined, ...env })) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  // bin/run.js: NO_COLOR set to anything, even empty, means no color.
  if (process.env.NO_COLOR === '') process.env.NO_COLOR = '1';
  let exitCode: number | undefined;
  process.stdout.write = capture('out');
  process.stderr.write = capture('err');
  Object.assign(console, {
    log: (...a: unknown[]) => void (stdout += line(a)),
    info: (...a: unknown[]) => void (stdout += line(a)),
    debug: (...a: unknown[]) => void (stdout += line(a)),
    error: (...a: unknown[]) => void (stderr += line(a)),
    warn: (...a: unknown[]) => void (stderr += line(a)),
  });
  // The first exit code asked for is the run's (oclif's handle ends with Exit.exit; a command may
  // call process.exit): nothing ends the test process.
  Exit.exit = ((code = 0) => void (exitCode ??= code)) as typeof Exit.exit;
  process.exit = ((code?: number) => void (exitCode ??= code ?? Number(process.exitCode ?? 0))) as typeof process.exit;
  process.argv = [process.execPath, join(root, 'bin', 'run.js'), ...args];
  process.exitCode = undefined;
  try {
    await runWith(config, args);
  } catch (err) {
    await handle(err as Error);
  } finally {
    // What a command left queued (writes, `finally` handlers) settles before the output is read,
    // as a process ends only once its event loop is empty.
    await new Promise((r) => setImmediate(r));
    // oclif's flush() waits for 'drain' once per run, which the capture never emits: its listeners
    // would pile up (MaxListenersExceededWarning).
    for (const l of process.stdout.listeners('drain')) if (!saved.drain.includes(l)) process.stdout.removeListener('drain', l as () => void);
    process.stdout.write = saved.out;
    process.stderr.write = saved.err;
    Object.assign(console, saved.console);
    Exit.exit = saved.exit;
    process.exit = saved.processExit;
    process.argv = saved.argv;
    restoreIds();
    for (const k of Object.keys(process.env)) if (!(k in savedEnv)) delete process.env[k];
    Object.assign(process.env, savedEnv);
  }
  const status = exitCode ?? Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  return { status, stdout, stderr };
}
