import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transport } from '../../src/transport/types.js';
import { docs } from '../helpers/cli.js';
import { recorder, runBoth } from '../helpers/parity.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { addPerson, newOrg } from '../organizations/people.js';

// Conversations with the organization agent (0.202.0; src/agents/conversations.ts): provisioned by
// PUT, listed, renamed and deleted by their creator alone.

let s: TestServer;
let org: string;
const at = (id: string, o = org) => `/v1/orgs/${o}/agent/conversations/${encodeURIComponent(id)}`;

beforeAll(async () => {
  s = await startServer();
  org = await newOrg(s);
});
afterAll(() => s.stop());

describe('organization agent conversations', () => {
  it('provision (204, again: no duplicate), list, rename, delete (205, then 404)', async () => {
    expect((await s.api('PUT', at('default'))).status).toBe(204);
    expect((await s.api('PUT', at('default'))).status).toBe(204);
    expect((await s.api('PUT', at('notes-1'))).status).toBe(204);
    const list = (await s.api('GET', `/v1/orgs/${org}/agent/conversations`)).body;
    expect(list.count).toBe(2);
    expect(list.items.map((c: any) => c.id).sort()).toEqual(['default', 'notes-1']);
    expect(list.items[0]).toMatchObject({ object: 'agent-conversation', shared: false });
    expect(list.items[0].title).toBeUndefined();
    const r = await s.api('PATCH', at('notes-1'), { body: { title: '  Release notes  ' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ object: 'agent-conversation', id: 'notes-1', title: 'Release notes', shared: false });
    expect((await s.api('GET', `/v1/orgs/${org}/agent/conversations`)).body.items[0].id).toBe('notes-1');
    expect((await s.api('DELETE', at('notes-1'))).status).toBe(205);
    const gone = await s.api('DELETE', at('notes-1'));
    expect(gone.status).toBe(404);
    expect(gone.body.error.message).toBe('agent conversation notes-1 not found');
    expect((await s.api('GET', `/v1/orgs/${org}/agent/conversations`)).body.items.map((c: any) => c.id)).toEqual(['default']);
  });

  it("is its creator's alone: another member (an admin too) neither sees, renames nor deletes it", async () => {
    expect((await s.api('PUT', at('mine'))).status).toBe(204);
    const admin = await addPerson(s, org, 'admin');
    expect((await s.api('GET', `/v1/orgs/${org}/agent/conversations`, { token: admin.token })).body.items).toEqual([]);
    const rename = await s.api('PATCH', at('mine'), { body: { title: 'Taken' }, token: admin.token });
    expect(rename.status).toBe(404);
    expect(rename.body.error.message).toBe('agent conversation mine not found');
    expect((await s.api('DELETE', at('mine'), { token: admin.token })).status).toBe(404);
    // The same client id names the admin's own conversation, apart from the owner's.
    expect((await s.api('PUT', at('mine'), { token: admin.token })).status).toBe(204);
    expect((await s.api('GET', `/v1/orgs/${org}/agent/conversations`, { token: admin.token })).body.count).toBe(1);
    const owner = (await s.api('GET', `/v1/orgs/${org}/agent/conversations`)).body.items.find((c: any) => c.id === 'mine');
    expect(owner.title).toBeUndefined();
  });

  it('refuses bad ids and titles (400, nothing stored), guests (403) and outsiders (404)', async () => {
    const before = (await s.api('GET', `/v1/orgs/${org}/agent/conversations`)).body.count;
    const bad = await s.api('PUT', at('-x'));
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^conversationId: must be 1 to 128 letters/);
    expect((await s.api('PUT', at('x'.repeat(129)))).status).toBe(400);
    await s.api('PUT', at('t'));
    expect((await s.api('PATCH', at('t'), { body: { title: '   ' } })).body.error.message).toBe('title: must not be blank');
    expect((await s.api('PATCH', at('t'), { body: { title: 'x'.repeat(201) } })).status).toBe(400);
    expect((await s.api('GET', `/v1/orgs/${org}/agent/conversations`)).body.count).toBe(before + 1);
    const guest = await addPerson(s, org, null);
    expect((await s.api('PUT', at('g'), { token: guest.token })).status).toBe(403);
    const elsewhere = await newOrg(s);
    const reader = await addPerson(s, elsewhere, 'read');
    expect((await s.api('GET', `/v1/orgs/${org}/agent/conversations`, { token: reader.token })).status).toBe(404);
  });
});

async function scenario(t: Transport) {
  const { out, step } = recorder();
  const organizationId = ((await t.call('listOrganizationsForAuthenticatedUser')).body as any).items[0].id;
  const path = { organizationId, conversationId: 'default' };
  await step(() => t.call('provisionOrganizationAgentConversation', { path }));
  await step(() => t.call('updateOrganizationAgentConversation', { path, body: { title: 'Plan' } }));
  await step(() => t.call('listOrganizationAgentConversations', { path: { organizationId } }));
  await step(() => t.call('updateOrganizationAgentConversation', { path: { ...path, conversationId: 'nope' }, body: { title: 'x' } }));
  await step(() => t.call('deleteOrganizationAgentConversation', { path }));
  await step(() => t.call('deleteOrganizationAgentConversation', { path }));
  return out;
}

describe('over both transports, and the CLI', () => {
  it('gives the same results in-process and over HTTP', async () => {
    const { local, remote } = await runBoth(s, scenario);
    expect(local).toEqual(remote);
    const statuses = local.map((x) => (Array.isArray(x) ? x[0] : undefined));
    expect(statuses).toEqual([204, 200, 200, undefined, 205, undefined]);
  });

  it('docs agents conversations provision / list / rename / delete', async () => {
    const env = { DOCS_API_URL: s.url, DOCS_TOKEN: s.token };
    const o = await newOrg(s);
    const p = await docs(['agents', 'conversations', 'provision', 'cli-1', '--org', o], env);
    expect(p.status, p.stderr).toBe(0);
    expect(p.stdout).toBe('✓ Provisioned agent conversation cli-1\n');
    const r = await docs(['agents', 'conversations', 'rename', 'cli-1', '--title', 'Plan', '--org', o], env);
    expect(r.stdout).toBe('✓ Renamed agent conversation cli-1 to "Plan"\n');
    const l = await docs(['agents', 'conversations', 'list', '--org', o], env);
    expect(l.stdout).toContain('Plan');
    const d = await docs(['agents', 'conversations', 'delete', 'cli-1', '--yes', '--org', o], env);
    expect(d.status, d.stderr).toBe(0);
    const again = await docs(['agents', 'conversations', 'delete', 'cli-1', '--yes', '--org', o], env);
    expect(again.status).toBe(3);
  });
});
