import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { insertToken } from '../../src/auth/tokens.js';
import type { Context } from '../../src/kernel/context.js';
import type { MemberRole } from '../../src/kernel/roles.js';
import { memberRowId } from '../../src/organizations/model.js';
import type { TestServer } from '../helpers/server.js';
import { Members } from '../../src/organizations/tables.js';
import { Users } from '../../src/users/tables.js';

export const petstore = (title = 'Pets', extra = '') => `openapi: 3.0.3
info: {title: ${title}, version: '1'}
paths:
  /pets:
    get:
      responses:
        '200': {description: ok}
x-lang: no
${extra}`;

export const invalidSpec = `openapi: 3.0.3
info: {title: Pets, version: '1'}
paths:
  /pets:
    get:
      responses:
        '200': {descripton: ok}
    post:
      responses: {}
`;

/**
 * A fixture HTTP server on 127.0.0.1 (only): the places a spec URL can point to, including
 * misbehaving ones (slow, too big, redirect loops). Requests are counted by path.
 */
/** The root of a spec split over files, its response a $ref to `responses` (`#/Ok` there). */
export const splitRoot = (responses: string) => `openapi: 3.1.0
info: {title: Split, version: '1'}
paths:
  /pets:
    get:
      responses:
        '200': {$ref: '${responses}#/Ok'}
`;

export async function startFixtures() {
  const hits = new Map<string, number>();
  const routes: Record<string, (res: import('node:http').ServerResponse, url: URL) => void> = {
    '/petstore.yaml': (res) => res.end(petstore('Fetched')),
    '/split/root.yaml': (res) => res.end(splitRoot('schemas/responses.yaml')),
    '/split/schemas/responses.yaml': (res) => res.end(`Ok: {description: fine}\n`),
    '/broken-ref.yaml': (res) =>
      res.end(`openapi: 3.1.0
info: {title: Broken, version: '1'}
paths:
  /pets:
    get:
      responses:
        '200': {$ref: 'missing.yaml#/Ok'}
`),
    '/slow.yaml': (res) => {
      setTimeout(() => res.end(petstore('Slow')), 800).unref();
    },
    '/big.yaml': (res) => res.end(petstore('Big', `x-padding: "${'x'.repeat(4096)}"\n`)),
    '/redirect': (res, url) => {
      const n = Number(url.searchParams.get('n') ?? 1);
      res.writeHead(302, { location: n > 1 ? `/redirect?n=${n - 1}` : '/petstore.yaml' }).end();
    },
    '/redirect-file': (res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end(),
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture');
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    const route = routes[url.pathname];
    if (route) route(res, url);
    else res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A user with a token and, when `role` is given (null: a guest), a membership of `org`. */
export async function addUser(ctx: Context, id: string, org: string, role: MemberRole | undefined) {
  const token = `gb_api_${id}`;
  await ctx.store.write((tx) => {
    const now = new Date().toISOString();
    tx.put(Users, { id, displayName: id, email: `${id}@example.com`, createdAt: now });
    insertToken(tx, token, id, 'test', new Date());
    if (role !== undefined) tx.put(Members, { id: memberRowId(org, id), organization: org, user: id, role, joinedAt: now, disabled: false, sso: false });
  });
  return token;
}

/** Polls a spec until processing is complete, and returns it. */
export async function completed(s: TestServer, path: string, token?: string) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const r = await s.api('GET', path, { token });
    if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    if (r.body.processingState === 'complete') return r.body;
    if (Date.now() > deadline) throw new Error(`${path} still ${r.body.processingState}`);
    await new Promise((res) => setTimeout(res, 20));
  }
}
