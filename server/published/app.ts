import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate } from '../../src/auth/tokens.js';
import type { Caller, Context } from '../../src/kernel/context.js';
import { asDocsError, DocsError } from '../../src/kernel/errors.js';
import { esc } from '../../src/published/render/html.js';
import { parseCookies } from '../../src/urls/site/visitor.js';
import { appPage, loginForm } from '../../src/published/app/page.js';
import { endSession, sessionCaller, startSession } from '../../src/published/app/sessions.js';
import { appView } from '../../src/published/app/views.js';

// The app's read-only views: every `urls.app` the API hands out (`/o/...`) answers with HTML for
// a signed-in member. Signing in is a form taking an API token, accepted only from this server's
// own pages (Origin or Referer) and behind the server's failed-authentication limit; it makes a
// new session (src/published/app/sessions.ts) whose id is kept in an HttpOnly, SameSite=Strict cookie; the views only read, each through the API's own operations (invoke)
// as that member, so a view shows exactly what the API would give them, and refuses the same.

const SESSION = 'docs_session';
const CSP = "default-src 'none'; img-src * data:; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

function html(res: ServerResponse, status: number, body: string, headers: Record<string, string | string[]> = {}): number {
  const bytes = Buffer.from(body);
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': bytes.length,
    'content-security-policy': CSP,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(bytes);
  return status;
}

/** Where to go after signing in: a path of the app only (no open redirect). */
const safeNext = (next: string | null | undefined) => (next && /^\/o(\/|$)/.test(next) && !next.startsWith('//') ? next : '/o');

async function readForm(req: IncomingMessage, limit = 8192): Promise<URLSearchParams> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > limit) throw new DocsError('too_large', `form: must be at most ${limit} bytes`);
    chunks.push(c as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/**
 * The server's failed-authentication limit (server/rate-limit.ts) around checking one secret
 * the client sent: a 429 when its address is limited; a wrong secret counts against it.
 */
export type AuthGuard = <T>(secret: string, check: () => Promise<T>) => Promise<T>;
const unguarded: AuthGuard = (_secret, check) => check();

/** Why a sign-in form POST is not from a page of this server (login CSRF), or undefined. */
function crossOrigin(req: IncomingMessage): string | undefined {
  const host = req.headers.host;
  const origin = req.headers.origin;
  const referer = req.headers.referer;
  const hostOf = (u: string) => {
    try {
      return new URL(u).host;
    } catch {
      return undefined;
    }
  };
  // Browsers send Origin with every form POST; Referer where an old one does not.
  if (origin !== undefined) return origin !== 'null' && hostOf(origin) === host ? undefined : `a sign-in from ${origin} (another origin) is refused`;
  if (referer !== undefined) return hostOf(referer) === host ? undefined : 'a sign-in from another origin is refused';
  return 'a sign-in needs the Origin (or Referer) of this server: sign in from its own form';
}

const retryHeaders = (e: DocsError) => (e as any).headers ?? {};

export async function serveApp(
  ctx: Context,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  search: string,
  guard: AuthGuard = unguarded,
): Promise<number> {
  const query = new URLSearchParams(search);
  const cookie = parseCookies(req.headers.cookie)[SESSION];
  if (pathname === '/o/login') {
    if (req.method === 'POST') {
      // Only this server's own form signs in: a page elsewhere cannot sign a visitor in as someone else.
      const foreign = crossOrigin(req);
      if (foreign) return html(res, 403, loginForm('/o', `${foreign}.`));
      const form = await readForm(req);
      const token = (form.get('token') ?? '').trim();
      const next = safeNext(form.get('next'));
      try {
        await guard(token, async () => {
          const who = await authenticate(ctx, token);
          // A scoped token (an installation's) does not sign in to the app: its views do not hold it to its scope.
          if (who.scope) throw new DocsError('unauthenticated', 'a scoped token does not sign in');
          return who;
        });
      } catch (err) {
        const e = asDocsError(err);
        if (e.kind === 'rate_limited')
          return html(res, 429, loginForm(next, 'Too many failed sign-ins from this address: wait and try again.'), retryHeaders(e));
        if (e.kind !== 'unauthenticated') throw err;
        return html(res, 401, loginForm(next, 'That token is not valid.'));
      }
      // A new session id at each sign-in; the one the browser came with ends.
      const id = startSession(ctx, token, cookie);
      res.writeHead(303, { location: next, 'set-cookie': `${SESSION}=${id}; Path=/; HttpOnly; SameSite=Strict`, 'content-length': 0 });
      res.end();
      return 303;
    }
    return html(res, 200, loginForm(safeNext(query.get('next'))));
  }
  if (pathname === '/o/logout') {
    endSession(ctx, cookie);
    res.writeHead(303, { location: '/o/login', 'set-cookie': `${SESSION}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`, 'content-length': 0 });
    res.end();
    return 303;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-length': 0 });
    res.end();
    return 405;
  }
  let caller: Caller;
  try {
    // A session id is a secret like a token: a wrong one counts against the address.
    caller = cookie ? await guard(cookie, () => sessionCaller(ctx, cookie)) : await sessionCaller(ctx, cookie);
  } catch (err) {
    const e = asDocsError(err);
    if (e.kind === 'rate_limited')
      return html(
        res,
        429,
        loginForm(pathname + (search ? `?${search}` : ''), 'Too many failed sign-ins from this address: wait and try again.'),
        retryHeaders(e),
      );
    if (e.kind !== 'unauthenticated') throw err;
    return html(res, 401, loginForm(pathname + (search ? `?${search}` : '')));
  }
  try {
    // `/o/<...>` views; `/integrations/<name>` (an integration's urls.app) as ['', 'integrations', name].
    const app = pathname.startsWith('/o/') || pathname === '/o';
    const segs = (app ? pathname.split('/').slice(2) : pathname.split('/')).map((s) => decodeURIComponent(s));
    while (segs.length && segs[segs.length - 1] === '') segs.pop();
    if (segs.some((s, i) => (!s && (app || i > 0)) || s.includes('\0'))) throw new DocsError('not_found', `nothing at ${pathname}`);
    return html(res, 200, await appView(ctx, caller, segs));
  } catch (err) {
    const e = err instanceof URIError ? new DocsError('not_found', `nothing at ${pathname}`) : asDocsError(err);
    if (e.kind === 'bug') throw err;
    return html(
      res,
      e.status,
      appPage(
        e.status === 403 ? 'Forbidden' : 'Not found',
        `<h1>${e.status === 403 ? 'Forbidden' : 'Not found'}</h1><p>${esc(e.message)}</p><p><a href="/o">Home</a></p>`,
      ),
    );
  }
}
