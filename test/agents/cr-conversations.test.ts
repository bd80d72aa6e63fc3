import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordChangeRequestConversation } from '../../src/agents/cr-conversations.js';
import { ChangeRequests } from '../../src/change-requests/tables.js';
import { conversationsIdle } from '../../src/conversations/processor.js';
import type { Transport } from '../../src/transport/types.js';
import { docs } from '../helpers/cli.js';
import { recorder, runBoth } from '../helpers/parity.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { addPerson, newOrg } from '../organizations/people.js';

// The agent's conversations in a change request (0.202.0; src/agents/cr-conversations.ts,
// docs/manual/agents.md#change-request-conversations): recorded when an agent task opens a change
// request and when a style guide run writes its fix draft; listed to whoever reads the change
// request; renamed and deleted with `edit` on its space. Every answer is checked against both
// specs by `s.api` (0.202.0 has these operations).

let s: TestServer;
const orgs = (o: string) => `/v1/orgs/${o}`;
const crs = (space: string) => `/v1/spaces/${space}/change-requests`;
const convs = (space: string, cr: string) => `${crs(space)}/${cr}/conversations`;

beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.stop());

/** An organization with a space and an agent task (one cluster), started: its change request. */
async function started() {
  const o = await newOrg(s);
  const space = (await s.api('POST', `${orgs(o)}/spaces`, { body: { title: 'Guides' } })).body.id as string;
  const r = await s.api('POST', `${orgs(o)}/conversations`, {
    body: [{ id: 'a', parts: [{ type: 'message', role: 'user', body: 'The password reset email never arrives, I cannot reset my password.' }] }],
  });
  expect(r.status).toBe(204);
  await conversationsIdle(s.ctx);
  const task = (await s.api('GET', `${orgs(o)}/agent-tasks`)).body.items[0];
  const up = await s.api('PATCH', `${orgs(o)}/agent-tasks/${task.id}`, { body: { status: 'started' } });
  expect(up.status).toBe(200);
  return { o, space, task: up.body, cr: up.body.changeRequest as string };
}

/** A second conversation recorded in the change request, as another area's agent work would. */
async function recordSecond(cr: string, title = 'Second pass') {
  await s.ctx.store.write((tx) =>
    recordChangeRequestConversation(tx, s.ctx, { changeRequest: tx.get(ChangeRequests, cr)!, user: 'u', origin: 'test', title, conversation: 'second' }),
  );
}

describe('recorded by the agent', () => {
  it('an agent task started opens a change request with its `default` conversation, shared, titled as the task', async () => {
    const { o, space, task, cr } = await started();
    const r = await s.api('GET', convs(space, cr));
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(1);
    expect(r.body.items[0]).toMatchObject({ object: 'agent-conversation', id: 'default', title: task.title, shared: true });
    expect(r.body.items[0].changeRequest).toBeUndefined();
    // The number addresses the change request too.
    const n = (await s.api('GET', `${crs(space)}/${cr}`)).body.number;
    expect((await s.api('GET', convs(space, String(n)))).body.items[0].id).toBe('default');
    // Starting it again opens nothing and records nothing more.
    await s.api('PATCH', `${orgs(o)}/agent-tasks/${task.id}`, { body: { status: 'canceled' } });
    await s.api('PATCH', `${orgs(o)}/agent-tasks/${task.id}`, { body: { status: 'started' } });
    expect((await s.api('GET', convs(space, cr))).body.count).toBe(1);
  });

  it('a change request a person opened has none', async () => {
    const { space } = await started();
    const mine = (await s.api('POST', crs(space), { body: { subject: 'By hand' } })).body.id;
    expect((await s.api('GET', convs(space, mine))).body).toEqual({ items: [], count: 0 });
  });

  it('a style guide run records one in its fix draft, continued (title kept) by the run that takes it over', async () => {
    const o = await newOrg(s);
    const space = (await s.api('POST', `${orgs(o)}/spaces`, { body: { title: 'Help' } })).body.id;
    const site = (await s.api('POST', `${orgs(o)}/sites`, { body: { title: 'Help center', spaces: [space] } })).body.id;
    expect((await s.api('POST', `${orgs(o)}/sites/${site}/styleguide`, { body: { template: 'plain-language' } })).status).toBe(200);
    const run = await s.api('POST', `${orgs(o)}/sites/${site}/styleguide/runs`, { body: { spaces: [space] } });
    expect(run.status).toBe(201);
    const cr = run.body.changeRequests[0].id;
    const first = (await s.api('GET', convs(space, cr))).body.items;
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ id: 'default', title: 'Style guide check of site Help center', shared: true });
    await s.api('PATCH', `${convs(space, cr)}/default`, { body: { title: 'Terms pass' } });
    await new Promise((r) => setTimeout(r, 5));
    const again = await s.api('POST', `${orgs(o)}/sites/${site}/styleguide/runs`, { body: { spaces: [space] } });
    expect(again.body.changeRequests[0].id).toBe(cr);
    const after = (await s.api('GET', convs(space, cr))).body.items;
    expect(after).toHaveLength(1);
    expect(after[0].title).toBe('Terms pass');
    expect(after[0].updatedAt > first[0].updatedAt).toBe(true);
    // Deleted, it is recorded again by the next run.
    expect((await s.api('DELETE', `${convs(space, cr)}/default`)).status).toBe(205);
    await s.api('POST', `${orgs(o)}/sites/${site}/styleguide/runs`, { body: { spaces: [space] } });
    expect((await s.api('GET', convs(space, cr))).body.items.map((c: any) => c.title)).toEqual(['Style guide check of site Help center']);
  });

  it('keeps at most 100 per change request: the least recently updated goes', async () => {
    const { space, cr } = await started();
    await s.ctx.store.write((tx) => {
      const changeRequest = tx.get(ChangeRequests, cr)!;
      for (let i = 0; i < 100; i++)
        recordChangeRequestConversation(tx, s.ctx, { changeRequest, user: 'u', origin: 'test', title: `n${i}`, conversation: `c${i}` });
    });
    const all = (await s.api('GET', `${convs(space, cr)}?limit=1000`)).body;
    expect(all.count).toBe(100);
    expect(all.items.some((c: any) => c.id === 'default')).toBe(false);
  });
});

describe('list, rename, delete', () => {
  it('lists most recently updated first, in pages', async () => {
    const { space, cr } = await started();
    await new Promise((r) => setTimeout(r, 5));
    await recordSecond(cr);
    const p1 = await s.api('GET', `${convs(space, cr)}?limit=1`);
    expect(p1.body.items.map((c: any) => c.id)).toEqual(['second']);
    expect(p1.body.count).toBe(2);
    const p2 = await s.api('GET', `${convs(space, cr)}?limit=1&page=${p1.body.next.page}`);
    expect(p2.body.items.map((c: any) => c.id)).toEqual(['default']);
    expect(p2.body.next).toBeUndefined();
    expect((await s.api('GET', `${convs(space, cr)}?page=nope`)).status).toBe(400);
  });

  it('renames (trimmed, 200) and deletes (205, then 404)', async () => {
    const { space, cr } = await started();
    const r = await s.api('PATCH', `${convs(space, cr)}/default`, { body: { title: '  Password reset  ' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ object: 'agent-conversation', id: 'default', title: 'Password reset', shared: true });
    expect((await s.api('GET', convs(space, cr))).body.items[0].title).toBe('Password reset');
    expect((await s.api('DELETE', `${convs(space, cr)}/default`)).status).toBe(205);
    const gone = await s.api('DELETE', `${convs(space, cr)}/default`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.message).toMatch(/^conversation default not found in change request \d+ of space /);
    expect((await s.api('GET', convs(space, cr))).body.count).toBe(0);
  });

  it('refuses bad titles (400 naming the field) and changes nothing', async () => {
    const { space, cr } = await started();
    const before = (await s.api('GET', convs(space, cr))).body;
    const blank = await s.api('PATCH', `${convs(space, cr)}/default`, { body: { title: '   ' } });
    expect(blank.status).toBe(400);
    expect(blank.body.error.message).toBe('title: must not be blank');
    const long = await s.api('PATCH', `${convs(space, cr)}/default`, { body: { title: 'x'.repeat(201) } });
    expect(long.status).toBe(400);
    expect(long.body.error.message).toBe('title: must be at most 200 characters');
    expect((await s.api('PATCH', `${convs(space, cr)}/default`, { body: {} })).status).toBe(400);
    expect((await s.api('PATCH', `${convs(space, cr)}/default`, { body: { title: 'x'.repeat(200) } })).status).toBe(200);
    await s.api('PATCH', `${convs(space, cr)}/default`, { body: { title: before.items[0].title } });
    const after = (await s.api('GET', convs(space, cr))).body;
    expect(after.items[0].title).toBe(before.items[0].title);
  });

  it('404 for an unknown change request or conversation, and for a conversation of another change request', async () => {
    const { space, cr } = await started();
    const other = (await s.api('POST', crs(space), { body: { subject: 'Other' } })).body.id;
    expect((await s.api('GET', convs(space, 'nope'))).status).toBe(404);
    expect((await s.api('PATCH', `${convs(space, 'nope')}/default`, { body: { title: 'x' } })).status).toBe(404);
    expect((await s.api('PATCH', `${convs(space, cr)}/nope`, { body: { title: 'x' } })).status).toBe(404);
    // `default` of `cr` is not reached through another change request of the same space.
    expect((await s.api('PATCH', `${convs(space, other)}/default`, { body: { title: 'x' } })).status).toBe(404);
    expect((await s.api('DELETE', `${convs(space, other)}/default`)).status).toBe(404);
    // Nor through another space.
    const elsewhere = (await s.api('POST', `${orgs((await s.api('GET', `/v1/spaces/${space}`)).body.organization)}/spaces`, { body: { title: 'B' } })).body.id;
    expect((await s.api('GET', convs(elsewhere, cr))).status).toBe(404);
    expect((await s.api('GET', convs(space, cr))).body.items.map((c: any) => c.title)).not.toContain('x');
  });

  it('shared with whoever reads the change request; renaming and deleting take edit on the space', async () => {
    const { o, space, cr } = await started();
    const reader = await addPerson(s, o, 'read');
    const list = await s.api('GET', convs(space, cr), { token: reader.token });
    expect(list.status).toBe(200);
    expect(list.body.items.map((c: any) => c.id)).toEqual(['default']);
    const rename = await s.api('PATCH', `${convs(space, cr)}/default`, { body: { title: 'Mine' }, token: reader.token });
    expect(rename.status).toBe(403);
    expect(rename.body.error.message).toMatch(/^renaming conversations of change requests of space .* needs the edit level/);
    expect((await s.api('DELETE', `${convs(space, cr)}/default`, { token: reader.token })).status).toBe(403);
    const editor = await addPerson(s, o, 'edit');
    expect((await s.api('PATCH', `${convs(space, cr)}/default`, { body: { title: 'Edited' }, token: editor.token })).status).toBe(200);
    expect((await s.api('DELETE', `${convs(space, cr)}/default`, { token: editor.token })).status).toBe(205);
    // Guests (no space level) and outsiders do not see the change request at all.
    const guest = await addPerson(s, o, null);
    expect((await s.api('GET', convs(space, cr), { token: guest.token })).status).toBe(404);
    const outsider = await addPerson(s, await newOrg(s), 'admin');
    expect((await s.api('GET', convs(space, cr), { token: outsider.token })).status).toBe(404);
  });
});

async function scenario(t: Transport) {
  const { out, step } = recorder();
  const body = (r: { body?: unknown }) => r.body as any;
  // A style guide run writes its fix draft at once (an agent task waits for the conversations worker).
  const organizationId = body(await t.call('listOrganizationsForAuthenticatedUser')).items[0].id;
  const spaceId = body(await t.call('createSpace', { path: { organizationId }, body: { title: 'Help' } })).id;
  const siteId = body(await t.call('createSite', { path: { organizationId }, body: { title: 'Help center', spaces: [spaceId] } })).id;
  await t.call('createSiteStyleguideById', { path: { organizationId, siteId }, body: { template: 'plain-language' } });
  const changeRequestId = body(await t.call('createSiteStyleguideRun', { path: { organizationId, siteId }, body: { spaces: [spaceId] } })).changeRequests[0].id;
  const path = { spaceId, changeRequestId, conversationId: 'default' };
  await step(() => t.call('listChangeRequestConversations', { path: { spaceId, changeRequestId } }));
  await step(() => t.call('updateChangeRequestConversation', { path, body: { title: 'Plan' } }));
  await step(() => t.call('updateChangeRequestConversation', { path: { ...path, conversationId: 'nope' }, body: { title: 'x' } }));
  await step(() => t.call('deleteChangeRequestConversation', { path }));
  await step(() => t.call('deleteChangeRequestConversation', { path }));
  return out;
}

describe('over both transports, and the CLI', () => {
  it('gives the same results in-process and over HTTP', async () => {
    const { local, remote } = await runBoth(s, scenario);
    expect(local).toEqual(remote);
    expect(local.map((x) => (Array.isArray(x) ? x[0] : undefined))).toEqual([200, 200, undefined, 205, undefined]);
  });

  it('docs cr conversations list / rename / delete', async () => {
    const env = { DOCS_API_URL: s.url, DOCS_TOKEN: s.token };
    const { space, cr } = await started();
    const l = await docs(['cr', 'conversations', 'list', space, cr], env);
    expect(l.status, l.stderr).toBe(0);
    expect(l.stdout).toMatch(/^default\tAnswer in the docs: /); // not a terminal: tab-separated rows
    expect(l.stdout).toContain('default');
    const r = await docs(['cr', 'conversations', 'rename', space, cr, 'default', '--title', 'Plan'], env);
    expect(r.stdout).toBe('✓ Renamed conversation default to "Plan"\n');
    const bad = await docs(['cr', 'conversations', 'rename', space, cr, 'default', '--title', ' '], env);
    expect(bad.status).toBe(2);
    const d = await docs(['cr', 'conversations', 'delete', space, cr, 'default', '--yes'], env);
    expect(d.status, d.stderr).toBe(0);
    const again = await docs(['cr', 'conversations', 'delete', space, cr, 'default', '--yes'], env);
    expect(again.status).toBe(3);
  });
});
