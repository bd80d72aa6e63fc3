// Runs `docs` commands inside one worker thread, one after another, for test/helpers/cli.ts: the
// built CLI (dist/cli, what bin/run.js loads) is loaded once per test file instead of once per
// command, which made the CLI test files spend most of their time starting node processes.
// Each request gets the environment, arguments, stdout/stderr and exit code a spawned process
// would have; a command that calls process.exit ends only its run here.
import { createRequire } from 'node:module';
import { workerData } from 'node:worker_threads';

const { port, state, bin } = workerData;
const flag = new Int32Array(state);
const baseEnv = { ...process.env };
let runs = 0;
let loaded;
const bundle = () => (loaded ??= createRequire(import.meta.url)('../../bin/cli-bundle.cjs'));

const realWrite = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };

port.on('message', async ({ args, env }) => {
  let stdout = '';
  let stderr = '';
  let exitCode;
  const capture = (which) => (chunk, encoding, cb) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString(typeof encoding === 'string' ? encoding : 'utf8');
    if (which === 'out') stdout += text;
    else stderr += text;
    const done = typeof encoding === 'function' ? encoding : cb;
    if (done) queueMicrotask(done);
    return true;
  };
  // The same environment a spawned child gets: the test's environment, then the call's changes.
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, baseEnv);
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  process.stdout.write = capture('out');
  process.stderr.write = capture('err');
  process.exitCode = undefined;
  process.argv = [process.execPath, bin, ...args];
  const exit = process.exit;
  // oclif's error handler ends with process.exit(code): the first code is the run's.
  process.exit = (code) => void (exitCode ??= code ?? process.exitCode ?? 0);
  try {
    // bin/run.js, a fresh copy per run, for its --version fast path; else the bundle's run()
    // (oclif's execute on process.argv). The bundle (oclif, commands, the store) is loaded once
    // per worker and stays loaded between runs.
    const fast = args.length === 1 && (args[0] === '--version' || args[0] === '-v');
    if (fast) await import(`${new URL('../../bin/run.js', import.meta.url).href}?run=${++runs}`);
    else await bundle().run();
  } catch (err) {
    stderr += `${err?.stack ?? err}\n`;
    exitCode ??= 1;
  } finally {
    // Let pending writes and `finally` handlers of the command settle (a spawned process ends
    // only once its event loop is empty; here the next macrotask is enough for what is queued).
    await new Promise((r) => setImmediate(r));
    process.exit = exit;
    // oclif's flush() waits for 'drain' once per run, and the capture above never emits it: its
    // listeners would pile up (MaxListenersExceededWarning on a later run's stderr).
    process.stdout.removeAllListeners('drain');
    process.stdout.write = realWrite.out;
    process.stderr.write = realWrite.err;
  }
  const status = exitCode ?? (typeof process.exitCode === 'number' ? process.exitCode : Number(process.exitCode ?? 0));
  process.exitCode = undefined;
  port.postMessage({ status, stdout, stderr });
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
