import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CONNECTIONS } from '../../src/site-context/connections.js';
import { ContextConnections, ContextRecords } from '../../src/site-context/tables.js';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';

// A site's context connections (docs/manual/site-context.md#connections-and-records): builtin:api
// and builtin:website served, every connector that needs a service outside this machine refused
// naming why, the limits, the roles. Every answer through s.api is checked against both specs.

let s: TestServer;
let org: string;
let reader: { userId: string; token: string };
let editor: { userId: string; token: string };
beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  reader = await addUser(s.ctx, org, 'read');
  editor = await addUser(s.ctx, org, 'edit');
});
afterAll(() => s?.stop());

async function newSite(title = 'Context site') {
  const site = await s.api('POST', `/v1/orgs/${org}/sites`, { body: { title } });
  expect(site.status).toBe(201);
  return `/v1/orgs/${org}/sites/${site.body.id}`;
}
const list = async (o: string) => (await s.api('GET', `${o}/context-connections`)).body.items;

describe('context connections', () => {
  it('creates, reads, lists, changes and removes a builtin:api connection; the roles', async () => {
    const o = await newSite();
    const made = await s.api('POST', `${o}/context-connections`, { body: { connector: 'builtin:api', filter: 'billing' } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toEqual({
      object: 'context-connection',
      id: made.body.id,
      connector: 'builtin:api',
      createdAt: made.body.createdAt,
      filter: 'billing',
      status: 'pending',
      records: 0,
      usageSettings: { changeRequests: true, search: true, searchBoost: 'x1.0' },
      urls: { location: `${s.url}${o}/context-connections/${made.body.id}` },
    });
    expect(made.headers.get('location')).toBe(made.body.urls.location);
    const at = `${o}/context-connections/${made.body.id}`;

    // One builtin:api connection per site: pushed records name no connection.
    const second = await s.api('POST', `${o}/context-connections`, { body: { connector: 'builtin:api' } });
    expect(second.status).toBe(409);
    expect(second.body.error.message).toContain('already has a builtin:api connection');

    // Reading needs the read role; changing, the site's admin role (an editor is refused too).
    expect((await s.api('GET', `${o}/context-connections`, { token: reader.token })).body.items.map((c: any) => c.id)).toEqual([made.body.id]);
    expect((await s.api('GET', at, { token: reader.token })).status).toBe(200);
    for (const token of [reader.token, editor.token]) {
      expect(
        (await s.api('POST', `${o}/context-connections`, { token, body: { connector: 'builtin:website', setupSettings: { url: 'https://example.com/' } } }))
          .status,
      ).toBe(403);
      expect((await s.api('PATCH', at, { token, body: { label: 'Nope' } })).status).toBe(403);
      expect((await s.api('POST', `${at}/sync`, { token })).status).toBe(403);
      expect((await s.api('POST', `${at}/test`, { token })).status).toBe(403);
      expect((await s.api('DELETE', at, { token })).status).toBe(403);
    }
    const outsider = await addUser(s.ctx);
    expect((await s.api('GET', at, { token: outsider.token })).status).toBe(404);

    const changed = await s.api('PATCH', at, {
      body: { label: 'Support tickets', usageSettings: { changeRequests: false, search: true, searchBoost: 'x1.2' } },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ label: 'Support tickets', filter: 'billing', usageSettings: { changeRequests: false, searchBoost: 'x1.2' } });
    // An empty label or filter removes it.
    expect((await s.api('PATCH', at, { body: { filter: '' } })).body.filter).toBeUndefined();

    // sync: the pushed records are the connection's; test: nothing to verify.
    expect((await s.api('POST', `${at}/sync`)).status).toBe(204);
    const synced = (await s.api('GET', at)).body;
    expect(synced.status).toBe('succeeded');
    expect(Date.parse(synced.syncedAt)).toBeGreaterThan(0);
    const tested = await s.api('POST', `${at}/test`);
    expect(tested.status).toBe(200);
    expect(tested.body).toEqual({ object: 'context-connection-test-result', success: true });

    expect((await s.api('GET', `${o}/context-connections/nosuchconnection0000`)).status).toBe(404);
    expect((await s.api('PATCH', `${o}/context-connections/nosuchconnection0000`, { body: { label: 'x' } })).status).toBe(404);
    expect((await s.api('POST', `${o}/context-connections/nosuchconnection0000/sync`)).status).toBe(404);
    expect((await s.api('DELETE', at)).status).toBe(205);
    expect((await s.api('DELETE', at)).status).toBe(204);
    expect(await list(o)).toEqual([]);
  });

  it('refuses every connector that needs a service outside this machine, naming it and why; nothing is created', async () => {
    const o = await newSite('Refused connectors');
    const cases: [unknown, string][] = [
      [{ connector: 'builtin:email' }, 'inbound mail server'],
      [{ connector: 'integration:zendesk-sync' }, "GitBook's integration platform"],
      [{ connector: 'builtin:intercom', setupSettings: { token: 't' } }, "Intercom's API"],
      [{ connector: 'builtin:zendesk', setupSettings: { subdomain: 'acme', email: 'a@example.com', apiToken: 't' } }, "Zendesk's API"],
      [{ connector: 'builtin:front', setupSettings: { token: 't' } }, "Front's API"],
      [{ connector: 'builtin:github-issues', setupSettings: { repository: 'acme/app', token: 't' } }, "GitHub's API"],
      [{ connector: 'builtin:github-discussions', setupSettings: { repository: 'acme/app', token: 't' } }, "GitHub's API"],
      [{ connector: 'builtin:youtube', setupSettings: { channelId: '@acme-videos' } }, "YouTube's API"],
      [{ connector: 'builtin:linear', setupSettings: { token: 't' } }, "Linear's API"],
      [{ connector: 'builtin:jira', setupSettings: { baseUrl: 'https://acme.atlassian.net', apiEmail: 'a@example.com', apiToken: 't' } }, "Jira Cloud's API"],
      [{ connector: 'builtin:hubspot', setupSettings: { token: 't' } }, "HubSpot's API"],
      [{ connector: 'builtin:pylon', setupSettings: { token: 't' } }, "Pylon's API"],
      [{ connector: 'builtin:freshdesk', setupSettings: { domain: 'acme', apiKey: 'k' } }, "Freshdesk's API"],
      [
        { connector: 'builtin:zoho-desk', setupSettings: { dataCenter: 'eu', orgId: '1', clientId: 'c', clientSecret: 's', refreshToken: 'r' } },
        "Zoho Desk's API",
      ],
    ];
    for (const [body, why] of cases) {
      const r = await s.api('POST', `${o}/context-connections`, { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message).toContain(`connector: ${(body as any).connector} cannot be reached from this server`);
      expect(r.body.error.message).toContain(why);
    }
    expect(await list(o)).toEqual([]);
  });

  it('refuses hostile website URLs and fields over their limits, naming the field; nothing is created or changed', async () => {
    const o = await newSite('Bad input');
    const website = (url: string) => ({ connector: 'builtin:website', setupSettings: { url } });
    for (const [body, words] of [
      [website('https://user:secret@example.com/'), 'setupSettings.url: a URL with a user name or password'],
      [website('ftp://example.com/docs'), 'setupSettings.url: only http and https'],
      [website('file:///etc/passwd'), 'setupSettings.url: only http and https'],
      [website('http://127.0.0.1:8080/'), 'setupSettings.url: 127.0.0.1:8080: 127.0.0.1 is a loopback address'],
      [website('http://10.1.2.3/'), 'is a private address'],
      [website('http://[::1]/'), 'is a loopback address'],
      [website('http://localhost:3000/'), 'setupSettings.url: localhost:3000 is this machine'],
      [website('not a url'), 'url'],
      [
        { connector: 'builtin:website', setupSettings: { url: 'https://example.com/', token: 'x' } },
        'setupSettings.token: a builtin:website connection takes url only',
      ],
      // The contract's oneOf refuses it first (no branch fits): named by the field it looks at.
      [{ connector: 'builtin:website' }, 'body.connector'],
      [{ connector: 'builtin:api', setupSettings: { url: 'https://example.com/' } }, 'setupSettings: a builtin:api connection takes no settings'],
      [{ connector: 'builtin:api', filter: 'f'.repeat(1025) }, 'filter'],
      [{ connector: 'builtin:api', usageSettings: { changeRequests: true, search: true, searchBoost: 'x9' } }, 'searchBoost'],
      [{ connector: 'builtin:api', usageSettings: { changeRequests: true, search: true, searchBoost: 'x1.0', sync: true } }, 'usageSettings.sync'],
    ] as const) {
      const r = await s.api('POST', `${o}/context-connections`, { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message, JSON.stringify(body)).toContain(words);
    }
    expect(await list(o)).toEqual([]);

    const made = (await s.api('POST', `${o}/context-connections`, { body: website('https://docs.example.com/start#top') })).body;
    expect(made.setupSettings).toEqual({ url: 'https://docs.example.com/start' });
    const at = `${o}/context-connections/${made.id}`;
    const before = (await s.api('GET', at)).body;
    for (const [body, words] of [
      [{ label: 'l'.repeat(129) }, 'label'],
      [{ connector: 'builtin:api' }, "connector: a connection's connector cannot change (this one is builtin:website)"],
      [website('https://admin:pw@docs.example.com/'), 'setupSettings.url: a URL with a user name or password'],
      [website('http://169.254.169.254/latest/meta-data/'), 'is a linkLocal address'],
    ] as const) {
      const r = await s.api('PATCH', at, { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message).toContain(words);
    }
    expect((await s.api('GET', at)).body).toEqual(before);
    // A new address: pending again, to be crawled at the next sync.
    const moved = await s.api('PATCH', at, { body: website('https://help.example.com/') });
    expect(moved.body).toMatchObject({ setupSettings: { url: 'https://help.example.com/' }, status: 'pending' });
  });

  it(`holds at most ${MAX_CONNECTIONS} connections per site`, async () => {
    const o = await newSite('Many connections');
    for (let i = 0; i < MAX_CONNECTIONS; i++) {
      const r = await s.api('POST', `${o}/context-connections`, {
        body: { connector: 'builtin:website', setupSettings: { url: `https://site${i}.example.com/` } },
      });
      expect(r.status).toBe(201);
    }
    const over = await s.api('POST', `${o}/context-connections`, {
      body: { connector: 'builtin:website', setupSettings: { url: 'https://one-more.example.com/' } },
    });
    expect(over.status).toBe(400);
    expect(over.body.error.message).toContain(`the most a site may have (${MAX_CONNECTIONS})`);
    const all = await s.api('GET', `${o}/context-connections?limit=100`);
    expect(all.body.items.length).toBe(MAX_CONNECTIONS);
    // Paged as every list.
    const first = await s.api('GET', `${o}/context-connections?limit=20`);
    expect(first.body.items.length).toBe(20);
    expect(first.body.next.page).toBeTruthy();
  });
});

describe('deleting the site', () => {
  it('removes its connections and their records in the same write (src/site-deletion.ts)', async () => {
    const o = await newSite('Doomed context site');
    const siteId = o.split('/').pop()!;
    expect((await s.api('POST', `${o}/context-connections`, { body: { connector: 'builtin:api' } })).status).toBe(201);
    const pushed = await s.api('PUT', `${o}/context-records`, { body: [{ id: 't-1', type: 'ticket', title: 'Install fails', body: 'Step 2 stops.' }] });
    expect(pushed.status).toBe(204);
    const rows = () => s.ctx.store.read((tx) => tx.find(ContextConnections, 'site', siteId).length + tx.find(ContextRecords, 'site', siteId).length);
    expect(await rows()).toBe(2);
    expect((await s.api('DELETE', o)).status).toBe(205);
    expect(await rows()).toBe(0);
  });
});
