import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestServer } from '../helpers/server.js';

export const SECRET = 'sk_live_very_secret_value_42';

/** A publish body with every required field; `over` replaces fields. */
export function manifest(org: string, over: Record<string, unknown> = {}) {
  return {
    organization: org,
    title: 'Slack',
    description: 'Notifications in Slack',
    script: 'export default {}',
    scopes: ['space:content:read'],
    secrets: { SLACK_TOKEN: SECRET },
    ...over,
  };
}

/** Makes a new organization (owned by the test server's owner) and returns its id. */
export async function newOrg(s: TestServer, title = 'Other Org'): Promise<string> {
  const r = await s.api('POST', '/v1/orgs', { body: { title } });
  return r.body.id;
}

export interface Received {
  headers: IncomingHttpHeaders;
  body: any;
}

/** A real receiving server on 127.0.0.1 answering `status()` (a function: tests change it). */
export async function startReceiver(status: () => number = () => 200, delayMs = 0) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(text) });
      setTimeout(() => res.writeHead(status()).end('ok'), delayMs);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
  return {
    url,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
