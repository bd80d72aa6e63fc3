// One at a time in this process: in-process CLI runs (each sets process.env for its run and puts
// it back after: test/helpers/in-process-cli.ts) and startServer's start (it sets
// DOCS_BOOTSTRAP_TOKEN around an await). Without it, a run still going (a test that timed out
// keeps running) puts back an environment without the token while the server bootstraps: the
// store gets a random token and every request of the next test is "invalid token".

let queue: Promise<unknown> = Promise.resolve();

/** Runs `fn` once everything queued before it has settled; the next waits for it. */
export function exclusive<T>(fn: () => Promise<T>): Promise<T> {
  const result = queue.then(fn);
  queue = result.catch(() => undefined);
  return result;
}
