import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationsIdle } from '../../src/conversations/processor.js';
import type { Transport } from '../../src/transport/types.js';
import { docs } from '../helpers/cli.js';
import { recorder, runBoth } from '../helpers/parity.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { addPerson, newOrg } from '../organizations/people.js';

// Agent tasks (src/agents/tasks.ts, docs/manual/agents.md#agent-tasks): one per issues cluster,
// on the organization's oldest space, with a status that follows the change requests addressing
// the cluster and what a person decided. And the setup state, counted from the same state.

let s: TestServer;
const base = (o: string) => `/v1/orgs/${o}`;
const msg = (body: string) => ({ type: 'message', role: 'user', body });

beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.stop());

async function ingest(o: string, items: { id: string; body: string }[]) {
  const r = await s.api('POST', `${base(o)}/conversations`, { body: items.map((i) => ({ id: i.id, parts: [msg(i.body)] })) });
  expect(r.status).toBe(204);
  await conversationsIdle(s.ctx);
}

/** An organization with a space and two clusters (password reset x2, DNS x1). */
async function world() {
  const o = await newOrg(s);
  const space = (await s.api('POST', `${base(o)}/spaces`, { body: { title: 'Guides' } })).body.id as string;
  await ingest(o, [
    { id: 'a', body: 'The password reset email never arrives, I cannot reset my password.' },
    { id: 'b', body: 'Password reset link expired before I could reset my password.' },
    { id: 'c', body: 'Custom domain DNS CNAME verification keeps failing for our site.' },
  ]);
  const clusters = (await s.api('GET', `${base(o)}/conversations-clusters?orderBy=issues`)).body.items;
  return { o, space, big: clusters[0].id as string, small: clusters[1].id as string };
}

describe('agent tasks', () => {
  it('are one per cluster, on the oldest space, in the backlog, with instructions from the issues', async () => {
    const { o, space, big, small } = await world();
    // A later space does not change where the tasks act.
    await s.api('POST', `${base(o)}/spaces`, { body: { title: 'Later' } });
    const list = (await s.api('GET', `${base(o)}/agent-tasks`)).body;
    expect(list.items.map((t: any) => t.id).sort()).toEqual([big, small].sort());
    const t = (await s.api('GET', `${base(o)}/agent-tasks/${big}`)).body;
    expect(t).toMatchObject({ object: 'agent-task', id: big, cluster: big, space, status: 'backlog' });
    expect(t.changeRequest).toBeUndefined();
    expect(t.title).toMatch(/^Answer in the docs: .*password/i);
    expect(t.description).toMatch(/^2 issues from 2 conversations about /);
    const text = JSON.stringify(t.instructions);
    expect(text).toContain('password reset');
    expect(t.instructions.nodes[1].type).toBe('list-unordered');
    expect(t.instructions.nodes[1].nodes).toHaveLength(2);
    // Filters: by cluster, by space, by status.
    expect((await s.api('GET', `${base(o)}/agent-tasks?cluster=${small}`)).body.items.map((x: any) => x.id)).toEqual([small]);
    expect((await s.api('GET', `${base(o)}/agent-tasks?space=nope`)).body.items).toEqual([]);
    expect((await s.api('GET', `${base(o)}/agent-tasks?status=started`)).body.items).toEqual([]);
    expect((await s.api('GET', `${base(o)}/agent-tasks?status=backlog&status=started`)).body.count).toBe(2);
  });

  it('have no task without a space to act on, and a 404 for an unknown id', async () => {
    const o = await newOrg(s);
    await ingest(o, [{ id: 'x', body: 'Search finds nothing when I type a page title.' }]);
    expect((await s.api('GET', `${base(o)}/agent-tasks`)).body.items).toEqual([]);
    const r = await s.api('GET', `${base(o)}/agent-tasks/nope`);
    expect(r.status).toBe(404);
    expect(r.body.error.message).toBe('agent task nope not found');
  });

  it('started opens a change request addressing the cluster; merged completes the task, which then changes no more', async () => {
    const { o, space, big } = await world();
    const started = await s.api('PATCH', `${base(o)}/agent-tasks/${big}`, { body: { status: 'started' } });
    expect(started.status).toBe(200);
    expect(started.body.status).toBe('started');
    const crId = started.body.changeRequest;
    const cr = (await s.api('GET', `/v1/spaces/${space}/change-requests/${crId}`)).body;
    expect(cr.conversationsIssuesCluster).toBe(big);
    expect(cr.subject).toBe(started.body.title.slice(0, 100));
    // Again: no second change request.
    const again = await s.api('PATCH', `${base(o)}/agent-tasks/${big}`, { body: { status: 'started' } });
    expect(again.body.changeRequest).toBe(crId);
    expect((await s.api('GET', `/v1/spaces/${space}/change-requests`)).body.count).toBe(1);
    // Back to the backlog while the change request is open: refused, nothing changed.
    const back = await s.api('PATCH', `${base(o)}/agent-tasks/${big}`, { body: { status: 'backlog' } });
    expect(back.status).toBe(409);
    expect(back.body.error.message).toMatch(/change request 1 of space .* is open for agent task .*: archive it/);
    // Merging it completes the task.
    const page = await s.api('POST', `/v1/spaces/${space}/change-requests/${crId}/content?compat=false`, {
      body: { changes: [{ operation: 'insert_page', type: 'document', title: 'Password reset', document: { markdown: 'Check spam.' } }] },
    });
    expect(page.status).toBeLessThan(300);
    expect((await s.api('POST', `/v1/spaces/${space}/change-requests/${crId}/merge`)).status).toBe(200);
    const done = (await s.api('GET', `${base(o)}/agent-tasks/${big}`)).body;
    expect(done).toMatchObject({ status: 'completed', changeRequest: crId });
    for (const status of ['canceled', 'backlog', 'started']) {
      const r = await s.api('PATCH', `${base(o)}/agent-tasks/${big}`, { body: { status } });
      expect(r.status, status).toBe(409);
      expect(r.body.error.message).toMatch(/is completed \(change request 1 was merged\)/);
    }
  });

  it('canceled sets a task aside; backlog brings it back; an archived change request puts a started task back in the backlog', async () => {
    const { o, space, big, small } = await world();
    const c = await s.api('PATCH', `${base(o)}/agent-tasks/${small}`, { body: { status: 'canceled' } });
    expect(c.body.status).toBe('canceled');
    expect((await s.api('GET', `${base(o)}/agent-tasks?status=canceled`)).body.items.map((t: any) => t.id)).toEqual([small]);
    expect((await s.api('PATCH', `${base(o)}/agent-tasks/${small}`, { body: { status: 'backlog' } })).body.status).toBe('backlog');
    const started = (await s.api('PATCH', `${base(o)}/agent-tasks/${big}`, { body: { status: 'started' } })).body;
    await s.api('PATCH', `/v1/spaces/${space}/change-requests/${started.changeRequest}`, { body: { status: 'archived' } });
    expect((await s.api('GET', `${base(o)}/agent-tasks/${big}`)).body.status).toBe('backlog');
    // A bad status is a 400 and changes nothing.
    const bad = await s.api('PATCH', `${base(o)}/agent-tasks/${big}`, { body: { status: 'completed' } });
    expect(bad.status).toBe(400);
    expect((await s.api('GET', `${base(o)}/agent-tasks/${big}`)).body.status).toBe('backlog');
  });

  it('readers see tasks, only editors change them; guests and outsiders see nothing', async () => {
    const { o, big } = await world();
    const reader = await addPerson(s, o, 'read');
    const guest = await addPerson(s, o, null);
    expect((await s.api('GET', `${base(o)}/agent-tasks`, { token: reader.token })).body.count).toBe(2);
    const r = await s.api('PATCH', `${base(o)}/agent-tasks/${big}`, { body: { status: 'canceled' }, token: reader.token });
    expect(r.status).toBe(403);
    expect(r.body.error.message).toBe('changing an agent task needs the edit role in this organization (you have read)');
    expect((await s.api('GET', `${base(o)}/agent-tasks/${big}`)).body.status).toBe('backlog');
    expect((await s.api('GET', `${base(o)}/agent-tasks`, { token: guest.token })).status).toBe(403);
    expect((await s.api('GET', `${base(o)}/agents-setup`, { token: guest.token })).status).toBe(403);
  });
});

describe('clusters count their tasks', () => {
  it('stats.tasks* follow the task of each cluster, and orderBy a task count sorts by it', async () => {
    const { o, big, small } = await world();
    await s.api('PATCH', `${base(o)}/agent-tasks/${small}`, { body: { status: 'started' } });
    await s.api('PATCH', `${base(o)}/agent-tasks/${big}`, { body: { status: 'canceled' } });
    const one = (await s.api('GET', `${base(o)}/conversations-clusters/${small}`)).body;
    expect(one.stats).toMatchObject({ tasksTotal: 1, tasksBacklog: 0, tasksStarted: 1, tasksCompleted: 0, tasksCancelled: 0 });
    const list = (await s.api('GET', `${base(o)}/conversations-clusters?orderBy=tasksStarted&order=desc`)).body.items;
    expect(list.map((c: any) => c.id)).toEqual([small, big]);
    expect(list[1].stats).toMatchObject({ tasksTotal: 1, tasksCancelled: 1, tasksStarted: 0 });
    expect((await s.api('GET', `${base(o)}/conversations-clusters?orderBy=tasksStarted&order=asc`)).body.items.map((c: any) => c.id)).toEqual([big, small]);
  });
});

describe('the agents setup state', () => {
  it('counts the tasks by status and what the conversations engine holds, by source', async () => {
    const { o, small } = await world();
    await s.api('PATCH', `${base(o)}/agent-tasks/${small}`, { body: { status: 'canceled' } });
    const r = await s.api('GET', `${base(o)}/agents-setup`);
    expect(r.status).toBe(200);
    const me = (await s.api('GET', '/v1/user')).body.id;
    expect(r.body).toEqual({
      email: '',
      settings: {},
      stats: {
        backlogTasks: 1,
        startedTasks: 0,
        completedTasks: 0,
        canceledTasks: 1,
        conversations: 3,
        issues: 3,
        issuesClusters: 2,
        sources: { [`integration:api:${me}`]: 3 },
      },
    });
    // A fresh organization: all zero.
    const empty = (await s.api('GET', `${base(await newOrg(s))}/agents-setup`)).body;
    expect(empty.stats).toMatchObject({ backlogTasks: 0, conversations: 0, issuesClusters: 0, sources: {} });
  });
});

/** The scenario both transports run. */
async function scenario(t: Transport) {
  const { out, step } = recorder();
  const organizationId = ((await t.call('listOrganizationsForAuthenticatedUser')).body as any).items[0].id;
  const path = { organizationId };
  await step(() => t.call('createSpace', { path, body: { title: 'Tasks' } }));
  await step(() =>
    t.call('ingestConversation', { path, body: [{ id: 'p1', parts: [{ type: 'message', role: 'user', body: 'The password reset email never arrives.' }] }] }),
  );
  let tasks: any;
  for (let i = 0; i < 500; i++) {
    tasks = (await t.call('listAgentTasks', { path })).body;
    if (tasks.items.length) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  out.push(tasks);
  const agentTaskId = tasks.items[0].id;
  await step(() => t.call('updateAgentTask', { path: { ...path, agentTaskId }, body: { status: 'canceled' } }));
  await step(() => t.call('getAgentTask', { path: { ...path, agentTaskId } }));
  await step(() => t.call('getAgentTask', { path: { ...path, agentTaskId: 'AAAAAAAAAAAAAAAAAAAA' } }));
  await step(() => t.call('getAgentSetupState', { path }));
  return out;
}

describe('agent tasks over both transports, and the CLI', () => {
  it('gives the same results in-process and over HTTP', async () => {
    const { local, remote } = await runBoth(s, scenario);
    expect(local).toEqual(remote);
    expect(JSON.stringify(local)).toContain('"kind":"not_found"');
  });

  it('docs agents setup / tasks list / get / update', async () => {
    const { o, big } = await world();
    const env = { DOCS_API_URL: s.url, DOCS_TOKEN: s.token };
    const list = await docs(['agents', 'tasks', 'list', '--org', o], env);
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toContain(big);
    expect(list.stdout).toContain('backlog');
    const up = await docs(['agents', 'tasks', 'update', big, '--status', 'canceled', '--org', o], env);
    expect(up.status, up.stderr).toBe(0);
    expect(up.stdout).toBe(`✓ Agent task ${big} is canceled\n`);
    const got = (await docs(['agents', 'tasks', 'get', big, '--org', o, '--json'], env)).json;
    expect(got.status).toBe('canceled');
    const setup = (await docs(['agents', 'setup', '--org', o, '--json'], env)).json;
    expect(setup.stats.canceledTasks).toBe(1);
    const bad = await docs(['agents', 'tasks', 'update', big, '--status', 'completed', '--org', o], env);
    expect(bad.status).toBe(2);
  });
});

describe('agent tasks through MCP (/mcp of docs serve)', () => {
  it('lists, reads and updates a task as tools', async () => {
    const { o, big } = await world();
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${s.token}` } } }));
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      for (const n of ['getAgentSetupState', 'listAgentTasks', 'getAgentTask', 'updateAgentTask', 'listOrganizationAgentConversations', 'getComputedDocument'])
        expect(names).toContain(n);
      const text = (r: any) => (r.content as { text: string }[])[0]!.text;
      const up = await client.callTool({ name: 'updateAgentTask', arguments: { organizationId: o, agentTaskId: big, status: 'canceled' } });
      expect(up.isError).toBeFalsy();
      expect(JSON.parse(text(up)).status).toBe('canceled');
      const list = await client.callTool({ name: 'listAgentTasks', arguments: { organizationId: o, status: ['canceled'] } });
      expect(JSON.parse(text(list)).items.map((t: any) => t.id)).toEqual([big]);
      const bad = await client.callTool({ name: 'updateAgentTask', arguments: { organizationId: o, agentTaskId: big, status: 'completed' } });
      expect(bad.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});
