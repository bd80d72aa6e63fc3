import { request, type IncomingMessage } from 'node:http';
import { randomBytes } from 'node:crypto';

// The first request a `docs serve` process answers ran, for the first time in the process, Node's
// HTTP server (parser, socket, response writing), our handler, authentication, the router and
// `invoke`: 14–20 ms of main-thread CPU against ~1 ms warm (docs/manual/performance.md, "First
// requests"), paid by whoever asked first. The server asks itself once before it says it is ready,
// over loopback, as its owner (the session token), and does not log it.

const HEADER = 'x-docs-warm-up';

export interface WarmUp {
  /** For createHandler's `isWarmUp`: this request is the warm-up (a secret of this process: nobody else can hide a request from the log). */
  isWarmUp(req: IncomingMessage): boolean;
  /** Sends the warm-up request; resolves with its status (0 when it failed: a start never fails for it). */
  run(port: number, host: string, token: string | undefined): Promise<number>;
}

export function warmUp(): WarmUp {
  const key = randomBytes(16).toString('hex');
  // Only until the warm-up was answered: after that no request, whatever it carries, is kept out
  // of the log or of a rate limit (the handler decides both when a request arrives).
  let open = true;
  return {
    isWarmUp: (req) => open && req.headers[HEADER] === key,
    run: (port, host, token) =>
      new Promise<number>((resolve) => {
        // The address listened on, or loopback when it was every address.
        const to = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
        const req = request(
          {
            host: to,
            port,
            path: '/v1/user',
            headers: { [HEADER]: key, host: to.includes(':') ? `[${to}]:${port}` : `${to}:${port}`, ...(token ? { authorization: `Bearer ${token}` } : {}) },
            agent: false,
            timeout: 5000,
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
            res.on('error', () => resolve(0));
          },
        );
        req.on('timeout', () => req.destroy());
        req.on('error', () => resolve(0));
        req.end();
      }).finally(() => {
        open = false;
      }),
  };
}
