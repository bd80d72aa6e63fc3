import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deliveryIdle } from '../../src/integrations/delivery.js';
import { compressToEncodedURIComponent } from '../../src/kernel/lz-string.js';
import { addUser } from '../helpers/people.js';
import { page, spaceWith } from '../published/fixture.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { manifest, newOrg } from './helpers.js';

// Statuses by target, site scripts, blocks, tasks, UI render and the legacy Git installation
// (docs/manual/integrations.md#ui-render-and-tasks, #site-scripts, #what-is-installed-where).

let s: TestServer;
let org: string;
let space: string;
let site: string;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  s = await startServer({ allowPrivateTunnels: true }); // the integrations below answer on 127.0.0.1
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'S' } })).body.id;
  site = (await s.api('POST', `/v1/orgs/${org}/sites`, { body: { title: 'Site' } })).body.id;
});
afterAll(() => s.stop());
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

interface Got {
  at: number;
  body: any;
}

/** A loopback integration: answers each event with `answer(event)` (status, type, text). */
async function integrationServer(answer: (e: any) => { status?: number; type?: string; text: string }) {
  const got: Got[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const body = JSON.parse(text);
      got.push({ at: Date.now(), body });
      const a = answer(body);
      res.writeHead(a.status ?? 200, { 'content-type': a.type ?? 'application/json' }).end(a.text);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(
    () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, got };
}

const ELEMENT = { type: 'element', element: { type: 'block', children: [{ type: 'markdown', content: 'Hi' }] }, state: {}, props: {} };
const render = () => ({ componentId: 'configure', props: {}, context: { type: 'configuration_account', theme: 'light', organizationId: org } });

async function publishWith(name: string, over: Record<string, unknown>, tunnelUrl?: string) {
  expect((await s.api('POST', `/v1/integrations/${name}`, { body: manifest(org, over) })).status).toBe(200);
  if (tunnelUrl) expect((await s.api('PUT', `/v1/integrations/${name}/dev`, { body: { tunnelUrl } })).status).toBe(204);
  return (await s.api('POST', `/v1/integrations/${name}/installations`, { body: { organization: org } })).body.id as string;
}

describe('statuses by target, blocks', () => {
  it('lists installations by target with their status (organization by default; space and site filters)', async () => {
    await publishWith('st-space', { target: 'space' });
    await publishWith('st-site', { target: 'site', configurations: { account: { properties: { k: { type: 'string' } }, required: ['k'] } } });
    const byOrg = (await s.api('GET', `/v1/orgs/${org}/integrations/installations-status`)).body.items;
    const row = (items: any[], name: string) => items.find((x: any) => x.integration.name === name);
    expect(row(byOrg, 'st-space')).toMatchObject({ status: 'active', target: { type: 'organization', organizationId: org } });
    expect(row(byOrg, 'st-site')).toMatchObject({ status: 'pending' });
    const bySpace = (await s.api('GET', `/v1/orgs/${org}/integrations/installations-status?target=space&space=${space}`)).body.items;
    expect(row(bySpace, 'st-space')).toMatchObject({ status: 'active', target: { type: 'space', spaceId: space } });
    expect(row(bySpace, 'st-site')).toBeUndefined(); // a site integration is not on spaces
    const bySite = (await s.api('GET', `/v1/orgs/${org}/integrations/installations-status?target=site&site=${site}`)).body.items;
    expect(row(bySite, 'st-site')).toMatchObject({ status: 'pending', target: { type: 'site', siteId: site } });
    expect(row(bySite, 'st-space')).toBeUndefined();
    const bad = await s.api('GET', `/v1/orgs/${org}/integrations/installations-status?site=${site}`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('target=site');
    const outsider = await addUser(s.ctx);
    expect((await s.api('GET', `/v1/orgs/${org}/integrations/installations-status`, { token: outsider.token })).status).toBe(404);
  });

  it('lists the blocks of the integrations installed on a space', async () => {
    const blocks = [{ id: 'diagram', title: 'Diagram', description: 'A diagram' }];
    await publishWith('blk', { target: 'space', blocks });
    const list = (await s.api('GET', `/v1/spaces/${space}/integration-blocks`)).body;
    expect(list.find((x: any) => x.name === 'blk')).toEqual({ name: 'blk', blocks });
    expect(list.every((x: any) => x.blocks.length > 0)).toBe(true); // integrations without blocks are left out
    const inst = (await s.api('GET', '/v1/integrations/blk/installations')).body.items[0].id;
    await s.api('DELETE', `/v1/integrations/blk/installations/${inst}/spaces/${space}`);
    expect((await s.api('GET', `/v1/spaces/${space}/integration-blocks`)).body.find((x: any) => x.name === 'blk')).toBeUndefined();
    const outsider = await addUser(s.ctx);
    expect((await s.api('GET', `/v1/spaces/${space}/integration-blocks`, { token: outsider.token })).status).toBe(404);
  });
});

describe('site scripts', () => {
  it('lists a script per site installation holding site:script:inject; its URL answers what the integration returns', async () => {
    const it1 = await integrationServer((e) => ({ type: 'application/javascript', text: `console.log(${JSON.stringify(e.siteId)})` }));
    const inst = await publishWith(
      'scr',
      { target: 'site', scopes: ['site:script:inject', 'site:script:cookies'], contentSecurityPolicy: { 'script-src': 'https://cdn.example' } },
      it1.url,
    );
    await publishWith('noscr', { target: 'site', scopes: ['site:metadata:read'] });
    const list = (await s.api('GET', `/v1/orgs/${org}/sites/${site}/integration-scripts`)).body;
    expect(list).toEqual([
      { script: `${s.url}/integration-scripts/${inst}/${site}.js`, contentSecurityPolicy: 'script-src https://cdn.example', cookies: true },
    ]);
    // Unpublished, the site has no visitors: 404, and the integration is not called.
    // Counted by type: the installation's own events (installation_setup...) reach the same
    // integration server whenever their delivery runs.
    const scriptCalls = () => it1.got.filter((g) => g.body.type === 'fetch_published_script').length;
    const calls = scriptCalls();
    expect((await fetch(list[0].script)).status).toBe(404);
    expect(scriptCalls()).toBe(calls);
    const content = await spaceWith(s, org, 'Scripted', [page('a', 'Intro', '# Intro\n')]);
    expect((await s.api('POST', `/v1/orgs/${org}/sites/${site}/site-spaces`, { body: { spaceId: content.space.id } })).status).toBe(201);
    expect((await s.api('POST', `/v1/orgs/${org}/sites/${site}/publish`)).status).toBe(200);
    const res = await fetch(list[0].script); // no token: a visitor's browser loads it
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('javascript');
    expect(await res.text()).toBe(`console.log(${JSON.stringify(site)})`);
    expect(it1.got.filter((g) => g.body.type === 'fetch_published_script').at(-1)!.body).toMatchObject({
      type: 'fetch_published_script',
      installationId: inst,
      siteId: site,
    });
    // Another site's id in the address, or an unknown installation: 404.
    const other = (await s.api('POST', `/v1/orgs/${org}/sites`, { body: { title: 'Other' } })).body.id;
    await s.api('DELETE', `/v1/integrations/scr/installations/${inst}/sites/${other}`);
    expect((await fetch(`${s.url}/integration-scripts/${inst}/${other}.js`)).status).toBe(404);
    expect((await fetch(`${s.url}/integration-scripts/nope/${site}.js`)).status).toBe(404);
    expect((await fetch(list[0].script, { method: 'POST' })).status).toBe(405);
    const outsider = await addUser(s.ctx);
    expect((await s.api('GET', `/v1/orgs/${org}/sites/${site}/integration-scripts`, { token: outsider.token })).status).toBe(404);
  });
});

describe('tasks', () => {
  it('queues a task, delivered to the integration like its events; `schedule` delays it', async () => {
    const rx = await integrationServer(() => ({ text: '{}' }));
    await publishWith('tasks', {}, rx.url);
    await deliveryIdle(s.ctx);
    const before = rx.got.length;
    expect((await s.api('POST', '/v1/integrations/tasks/tasks', { body: { task: { type: 'sync', n: 1 } } })).status).toBe(204);
    await deliveryIdle(s.ctx);
    expect(rx.got.slice(before).map((g) => g.body)).toEqual([expect.objectContaining({ type: 'integration_task', task: { type: 'sync', n: 1 } })]);
    const queued = Date.now();
    expect((await s.api('POST', '/v1/integrations/tasks/tasks', { body: { task: { type: 'later' }, schedule: 0.6 } })).status).toBe(204);
    await deliveryIdle(s.ctx);
    expect(rx.got.some((g) => g.body.task?.type === 'later')).toBe(false); // not yet due
    await expect.poll(() => rx.got.find((g) => g.body.task?.type === 'later'), { timeout: 5000 }).toBeTruthy();
    expect(rx.got.find((g) => g.body.task?.type === 'later')!.at - queued).toBeGreaterThanOrEqual(550);
    // Tasks are no events of the spec (its Event has no task type): not listed among them.
    const events = (await s.api('GET', '/v1/integrations/tasks/events')).body.items;
    expect(events.map((e: any) => e.payload.type)).toEqual(['installation_setup']);
  });

  it('takes tasks from an installation token of the integration or its admins; others are refused, nothing queued', async () => {
    const rx = await integrationServer(() => ({ text: '{}' }));
    const inst = await publishWith('tasks2', {}, rx.url);
    const token = (await s.api('POST', `/v1/integrations/tasks2/installations/${inst}/tokens`)).body.token;
    expect((await s.api('POST', '/v1/integrations/tasks2/tasks', { body: { task: { a: 1 } }, token })).status).toBe(204);
    const elsewhere = await s.api('POST', '/v1/integrations/tasks/tasks', { body: { task: { a: 1 } }, token });
    expect(elsewhere.status).toBe(403);
    const reader = await addUser(s.ctx, org, 'read');
    const refused = await s.api('POST', '/v1/integrations/tasks2/tasks', { body: { task: { a: 1 } }, token: reader.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain('admin');
    expect((await s.api('POST', '/v1/integrations/tasks2/tasks', { body: { task: { a: 1 }, schedule: 86401 } })).status).toBe(400);
    await deliveryIdle(s.ctx);
    expect(rx.got.filter((g) => g.body.type === 'integration_task').map((g) => g.body.installationId)).toEqual([inst]);
    expect((await s.api('POST', '/v1/integrations/nope/tasks', { body: { task: {} } })).status).toBe(404);
  });
});

describe('UI render', () => {
  it('forwards a render (POST, and GET with the LZ-string request) to the integration and returns its ContentKit output', async () => {
    const it1 = await integrationServer(() => ({ text: JSON.stringify(ELEMENT) }));
    await publishWith('ui', {}, it1.url);
    const post = await s.api('POST', '/v1/integrations/ui/render', { body: render() });
    expect(post.status, JSON.stringify(post.body)).toBe(200);
    expect(post.body).toEqual(ELEMENT);
    expect(it1.got.filter((g) => g.body.type === 'ui_render').at(-1)!.body).toMatchObject({
      type: 'ui_render',
      ...render(),
      auth: { userId: expect.any(String) },
    });
    const get = await s.api('GET', `/v1/integrations/ui/render?request=${compressToEncodedURIComponent(JSON.stringify({ ...render(), state: { n: 2 } }))}`);
    expect(get.status).toBe(200);
    expect(get.body).toEqual(ELEMENT);
    expect(it1.got.filter((g) => g.body.type === 'ui_render').at(-1)!.body.state).toEqual({ n: 2 });
    const garbled = await s.api('GET', '/v1/integrations/ui/render?request=not-lz!');
    expect(garbled.status).toBe(400);
    expect(garbled.body.error.message).toContain('LZ-string');
    const wrong = await s.api('GET', `/v1/integrations/ui/render?request=${compressToEncodedURIComponent(JSON.stringify({ props: {} }))}`);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toMatch(/^request/);
  });

  it('503 naming the fault when the integration answers badly; 412 without development mode; 403 outside its organizations', async () => {
    let answer = { status: 500, text: 'boom' };
    const it1 = await integrationServer(() => answer);
    await publishWith('ui2', {}, it1.url);
    const failed = await s.api('POST', '/v1/integrations/ui2/render', { body: render() });
    expect(failed.status).toBe(503);
    expect(failed.body.error.message).toContain('answered 500');
    answer = { status: 200, text: JSON.stringify({ element: 'nope' }) };
    const invalidOut = await s.api('POST', '/v1/integrations/ui2/render', { body: render() });
    expect(invalidOut.status).toBe(503);
    expect(invalidOut.body.error.message).toContain('ContentKit');
    await publishWith('ui3', {});
    const off = await s.api('POST', '/v1/integrations/ui3/render', { body: render() });
    expect(off.status).toBe(412);
    expect(off.body.error.message).toContain('development tunnel');
    // A public integration not installed in any of the caller's organizations.
    const other = await newOrg(s);
    await s.api('POST', '/v1/integrations/ui4', { body: { ...manifest(other), visibility: 'public' } });
    const stranger = await addUser(s.ctx, org, 'admin');
    const refused = await s.api('POST', '/v1/integrations/ui4/render', { body: render(), token: stranger.token });
    expect(refused.status).toBe(403);
  });

  it('never reaches a loopback tunnel without the owner allowing it (the outbound guard)', async () => {
    const guarded = await startServer();
    try {
      const o = (await guarded.api('GET', '/v1/orgs')).body.items[0].id;
      await guarded.api('POST', '/v1/integrations/ui5', { body: manifest(o) });
      // The owner's own token over HTTP is not the in-process CLI: a private tunnel is refused when set.
      const set = await guarded.api('PUT', '/v1/integrations/ui5/dev', { body: { tunnelUrl: 'http://127.0.0.1:9/' } });
      expect(set.status).toBe(400);
    } finally {
      await guarded.stop();
    }
  });
});

describe('legacy Git installation', () => {
  it('answers "already removed" (204) to a space admin; 403 below; 404 for another space', async () => {
    expect((await s.api('DELETE', `/v1/spaces/${space}/git/legacy-installation`)).status).toBe(204);
    const editor = await addUser(s.ctx, org, 'edit');
    const refused = await s.api('DELETE', `/v1/spaces/${space}/git/legacy-installation`, { token: editor.token });
    expect(refused.status).toBe(403);
    expect((await s.api('DELETE', '/v1/spaces/nope/git/legacy-installation')).status).toBe(404);
  });
});
