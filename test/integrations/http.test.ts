import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { addUser } from '../helpers/people.js';
import { manifest, newOrg, SECRET } from './helpers.js';
import { IntegrationInstallations } from '../../src/integrations/tables.js';

let s: TestServer;
let org: string;

// Every response body of this file, searched for the published secret at the end.
const bodies: string[] = [];

beforeAll(async () => {
  s = await startServer();
  const api = s.api;
  s.api = async (...args) => {
    const r = await api(...args);
    bodies.push(JSON.stringify(r.body ?? ''));
    return r;
  };
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
});
afterAll(() => s.stop());

afterAll(() => {
  expect(bodies.length).toBeGreaterThan(100);
  for (const b of bodies) expect(b).not.toContain(SECRET);
});

describe('publish, get, list, unpublish', () => {
  it('publishes (version 1), publishes again (version 2), and never returns secrets or the script', async () => {
    const r = await s.api('POST', '/v1/integrations/slack.v1', { body: manifest(org, { visibility: 'public', categories: ['collaboration'] }) });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      object: 'integration',
      name: 'slack.v1',
      version: 1,
      title: 'Slack',
      target: 'all',
      visibility: 'public',
      verified: false,
      permissions: { admin: true },
    });
    expect(r.body.owner.id).toBe(org);
    expect(r.body.urls.location).toBe(`${s.url}/v1/integrations/slack.v1`);
    const again = await s.api('POST', '/v1/integrations/slack.v1', { body: manifest(org, { title: 'Slack 2', visibility: 'public' }) });
    expect(again.body).toMatchObject({ version: 2, title: 'Slack 2' });
    const got = await s.api('GET', '/v1/integrations/slack.v1');
    expect(got.body).toEqual(again.body);
    for (const body of [r.body, again.body, got.body, (await s.api('GET', '/v1/integrations')).body]) {
      expect(JSON.stringify(body)).not.toContain(SECRET);
      expect(JSON.stringify(body)).not.toContain('export default');
    }
  });

  it('takes the organization as a subdomain, and answers 404 naming it when none matches', async () => {
    await s.api('PATCH', `/v1/orgs/${org}`, { body: { hostname: 'acme-docs' } });
    const r = await s.api('POST', '/v1/integrations/by-host', { body: manifest('acme-docs') });
    expect(r.status).toBe(200);
    expect(r.body.owner.id).toBe(org);
    const none = await s.api('POST', '/v1/integrations/nowhere', { body: manifest('no-such-org') });
    expect(none.status).toBe(404);
    expect(none.body.error.message).toMatch(/^organization: no organization matches no-such-org/);
    expect((await s.api('GET', '/v1/integrations/nowhere')).status).toBe(404);
  });

  it('refuses bad input with a 400 naming the field, creating nothing', async () => {
    const bad = async (name: string, body: unknown, message: RegExp) => {
      const r = await s.api('POST', `/v1/integrations/${name}`, { body });
      expect(r.status).toBe(400);
      expect(r.body.error.message).toMatch(message);
      expect((await s.api('GET', `/v1/integrations/${name}`)).status).toBe(404);
    };
    await bad('bad1', manifest(org, { title: 'x' }), /title/);
    await bad('bad2', manifest(org, { title: '  x ' }), /^title: must be 2 to 30/);
    await bad('bad3', manifest(org, { icon: 'not base64!' }), /icon/);
    await bad('bad4', manifest(org, { script: '' }), /^script: must not be empty/);
    await bad('bad5', manifest(org, { runtime: 'v9' }), /runtime/);
    await bad(
      'bad6',
      manifest(org, {
        blocks: [
          { id: 'a', title: 'Block' },
          { id: 'a', title: 'Again' },
        ],
      }),
      /^blocks: id a appears twice/,
    );
    await bad('bad7', manifest(org, { scopes: ['space:everything'] }), /scopes/);
    await bad('bad8', { ...manifest(org), organization: undefined }, /organization/);
    expect((await s.api('POST', '/v1/integrations/bad%20name', { body: manifest(org) })).status).toBe(400);
  });

  it('lets only admins of the owning organization publish and delete; others get 403 or 404', async () => {
    const editor = await addUser(s.ctx, org, 'create');
    const outsider = await addUser(s.ctx);
    const byEditor = await s.api('POST', '/v1/integrations/perm-test', { body: manifest(org), token: editor.token });
    expect(byEditor.status).toBe(403);
    expect(byEditor.body.error.message).toMatch(/needs the admin role.*you have create/);
    expect((await s.api('POST', '/v1/integrations/perm-test', { body: manifest(org), token: outsider.token })).status).toBe(404);
    await s.api('POST', '/v1/integrations/perm-test', { body: manifest(org, { visibility: 'public' }) });
    // Not the owner: 403 to update; a non-member cannot publish it under another organization either.
    const theirs = await newOrgFor(outsider.token);
    const steal = await s.api('POST', '/v1/integrations/perm-test', { body: manifest(theirs), token: outsider.token });
    expect(steal.status).toBe(409);
    expect(steal.body.error.message).toMatch(/^organization: integration perm-test is owned by/);
    const del = await s.api('DELETE', '/v1/integrations/perm-test', { token: editor.token });
    expect(del.status).toBe(403);
    // A private integration's name is taken too, without saying by whom.
    await s.api('POST', '/v1/integrations/perm-private', { body: manifest(org) });
    const taken = await s.api('POST', '/v1/integrations/perm-private', { body: manifest(theirs), token: outsider.token });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toBe('integrationName: the name perm-private is taken');
    const viewed = await s.api('GET', '/v1/integrations/perm-test', { token: outsider.token });
    expect(viewed.status).toBe(200);
    expect(viewed.body.permissions.admin).toBe(false);
    expect(viewed.body.version).toBe(1);
    expect((await s.api('GET', '/v1/integrations/perm-test', { token: editor.token })).body.permissions.admin).toBe(false);
  });

  it('hides private integrations from non-members (404) and unlisted ones from their lists', async () => {
    const outsider = await addUser(s.ctx);
    await s.api('POST', '/v1/integrations/hidden', { body: manifest(org, { visibility: 'private' }) });
    await s.api('POST', '/v1/integrations/unlisted-one', { body: manifest(org, { visibility: 'unlisted' }) });
    expect((await s.api('GET', '/v1/integrations/hidden', { token: outsider.token })).status).toBe(404);
    expect((await s.api('GET', '/v1/integrations/unlisted-one', { token: outsider.token })).status).toBe(200);
    const theirList = (await s.api('GET', '/v1/integrations?limit=1000', { token: outsider.token })).body.items.map((i: any) => i.name);
    expect(theirList).not.toContain('hidden');
    expect(theirList).not.toContain('unlisted-one');
    const ownList = (await s.api('GET', '/v1/integrations?limit=1000')).body.items.map((i: any) => i.name);
    expect(ownList).toEqual(expect.arrayContaining(['hidden', 'unlisted-one']));
    // Deleting what one cannot see is "nothing there".
    expect((await s.api('DELETE', '/v1/integrations/hidden', { token: outsider.token })).status).toBe(204);
    expect((await s.api('GET', '/v1/integrations/hidden')).status).toBe(200);
  });

  it('filters lists by search, category, blockDomain, blocks, contentSources, owner, scope, target', async () => {
    const other = await newOrg(s, 'Filters Org');
    await s.api('POST', '/v1/integrations/f-figma', {
      body: manifest(other, {
        title: 'Figma',
        categories: ['content'],
        target: 'space',
        scopes: ['space:content:write'],
        blocks: [{ id: 'embed', title: 'Embed', urlUnfurl: ['https://www.figma.com/file/*'] }],
      }),
    });
    await s.api('POST', '/v1/integrations/f-git', {
      body: manifest(other, {
        title: 'Git',
        categories: ['analytics'],
        target: 'site',
        contentSources: [{ id: 'src', title: 'Repo', configuration: { componentId: 'cfg' } }],
      }),
    });
    const names = async (q: string) => (await s.api('GET', `/v1/integrations?owner=${other}&${q}`)).body.items.map((i: any) => i.name);
    expect(await names('')).toEqual(['f-figma', 'f-git']);
    expect(await names('search=FIG')).toEqual(['f-figma']);
    expect(await names('category=analytics')).toEqual(['f-git']);
    expect(await names('blockDomain=figma.com')).toEqual(['f-figma']);
    expect(await names('blockDomain=github.com')).toEqual([]);
    expect(await names('blocks=true')).toEqual(['f-figma']);
    expect(await names('blocks=false')).toEqual(['f-git']);
    expect(await names('contentSources=true')).toEqual(['f-git']);
    expect(await names('scope=space:content:write')).toEqual(['f-figma']);
    expect(await names('target=site')).toEqual(['f-git']);
    expect((await s.api('GET', '/v1/integrations?category=nope')).status).toBe(400);
    const page = await s.api('GET', `/v1/integrations?owner=${other}&limit=1`);
    expect(page.body.count).toBe(2);
    expect(page.body.next.page).toBeDefined();
  });

  it('deletes an integration with its installations and events: 205, then 204', async () => {
    await s.api('POST', '/v1/integrations/short-lived', { body: manifest(org) });
    const inst = await s.api('POST', '/v1/integrations/short-lived/installations', { body: { organization: org } });
    expect(inst.status).toBe(201);
    expect((await s.api('DELETE', '/v1/integrations/short-lived')).status).toBe(205);
    expect((await s.api('DELETE', '/v1/integrations/short-lived')).status).toBe(204);
    expect((await s.api('GET', '/v1/integrations/short-lived')).status).toBe(404);
    expect(await s.ctx.store.read((tx) => tx.get(IntegrationInstallations, inst.body.id))).toBeUndefined();
    // Published again: a new integration, version 1, no old installations or events.
    await s.api('POST', '/v1/integrations/short-lived', { body: manifest(org) });
    expect((await s.api('GET', '/v1/integrations/short-lived')).body.version).toBe(1);
    expect((await s.api('GET', '/v1/integrations/short-lived/installations')).body.count).toBe(0);
    expect((await s.api('GET', '/v1/integrations/short-lived/events')).body.count).toBe(0);
  });
});

async function newOrgFor(token: string): Promise<string> {
  return (await s.api('POST', '/v1/orgs', { body: { title: 'Their Org' }, token })).body.id;
}

describe('installations', () => {
  it('installs on an organization (201, Location), lists, filters by externalId, gets, and emits installation_setup', async () => {
    await s.api('POST', '/v1/integrations/inst', { body: manifest(org, { visibility: 'public' }) });
    const r = await s.api('POST', '/v1/integrations/inst/installations', { body: { organization: org } });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(r.body.urls.location);
    expect(r.body).toMatchObject({
      status: 'active',
      space_selection: 'all',
      site_selection: 'all',
      configuration: {},
      externalIds: [],
      target: { organization: org },
    });
    const id = r.body.id;
    expect((await s.api('GET', `/v1/integrations/inst/installations/${id}`)).body).toEqual(r.body);
    expect((await s.api('POST', '/v1/integrations/inst/installations', { body: { organization: org } })).status).toBe(409);
    const patched = await s.api('PATCH', `/v1/integrations/inst/installations/${id}`, { body: { externalIds: ['team-1'] } });
    expect(patched.body.externalIds).toEqual(['team-1']);
    expect((await s.api('GET', '/v1/integrations/inst/installations?externalId=team-1')).body.items.map((i: any) => i.id)).toEqual([id]);
    expect((await s.api('GET', '/v1/integrations/inst/installations?externalId=other')).body.count).toBe(0);
    const events = (await s.api('GET', '/v1/integrations/inst/events')).body;
    expect(events.count).toBe(1); // externalIds alone emit nothing
    expect(events.items[0]).toMatchObject({
      status: 'success',
      installationId: id,
      payload: { type: 'installation_setup', installationId: id, status: 'active' },
    });
    expect(events.items[0].payload.eventId).toBe(events.items[0].id);
    expect((await s.api('GET', '/v1/integrations/inst/installations/nope')).status).toBe(404);
  });

  it('needs the admin role in the target organization; a private integration installs only in its owner', async () => {
    await s.api('POST', '/v1/integrations/inst-perm', { body: manifest(org, { visibility: 'public' }) });
    const reader = await addUser(s.ctx, org, 'read');
    const r = await s.api('POST', '/v1/integrations/inst-perm/installations', { body: { organization: org }, token: reader.token });
    expect(r.status).toBe(403);
    expect(r.body.error.message).toMatch(/installing an integration needs the admin role/);
    expect((await s.api('GET', '/v1/integrations/inst-perm/installations', { token: reader.token })).body.count).toBe(0);
    const other = await newOrg(s, 'Installer Org');
    expect((await s.api('POST', '/v1/integrations/inst-perm/installations', { body: { organization: other } })).status).toBe(201);
    await s.api('POST', '/v1/integrations/inst-private', { body: manifest(org, { visibility: 'private' }) });
    const priv = await s.api('POST', '/v1/integrations/inst-private/installations', { body: { organization: other } });
    expect(priv.status).toBe(403);
    expect(priv.body.error.message).toMatch(/private/);
    expect((await s.api('POST', '/v1/integrations/missing/installations', { body: { organization: org } })).status).toBe(404);
    // An admin of another organization who installed it sees only their own installation.
    const admin2 = await addUser(s.ctx, other, 'admin');
    const seen = (await s.api('GET', '/v1/integrations/inst-perm/installations', { token: admin2.token })).body.items;
    expect(seen.map((i: any) => i.target.organization)).toEqual([other]);
    // The owner's admins (its developers) see every installation.
    expect((await s.api('GET', '/v1/integrations/inst-perm/installations')).body.count).toBe(1);
  });

  it('is pending until the required configuration is given; configuration changes emit installation_setup with previous', async () => {
    const configurations = {
      account: { properties: { channel: { type: 'string', title: 'Channel' }, level: { type: 'string', enum: ['low', 'high'] } }, required: ['channel'] },
    };
    await s.api('POST', '/v1/integrations/conf', { body: manifest(org, { configurations }) });
    const r = await s.api('POST', '/v1/integrations/conf/installations', { body: { organization: org } });
    expect(r.body.status).toBe('pending');
    const id = r.body.id;
    const wrong = await s.api('PATCH', `/v1/integrations/conf/installations/${id}`, { body: { configuration: { channel: 5 } } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toBe('configuration.channel: must be a string');
    expect((await s.api('PATCH', `/v1/integrations/conf/installations/${id}`, { body: { configuration: { channel: '#a', level: 'mid' } } })).status).toBe(400);
    expect((await s.api('PATCH', `/v1/integrations/conf/installations/${id}`, { body: {} })).status).toBe(400);
    const ok = await s.api('PATCH', `/v1/integrations/conf/installations/${id}`, { body: { configuration: { channel: '#docs' } } });
    expect(ok.body).toMatchObject({ status: 'active', configuration: { channel: '#docs' } });
    const events = (await s.api('GET', '/v1/integrations/conf/events')).body.items;
    expect(events.map((e: any) => e.payload.type)).toEqual(['installation_setup', 'installation_setup']);
    expect(events[0].payload).toMatchObject({ status: 'active', previous: { status: 'pending', configuration: {} } });
    const editor = await addUser(s.ctx, org, 'edit');
    const denied = await s.api('PATCH', `/v1/integrations/conf/installations/${id}`, { body: { configuration: {} }, token: editor.token });
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toBe('changing an installation needs the admin role in this organization (you have edit)');
    expect((await s.api('GET', `/v1/integrations/conf/installations/${id}`, { token: editor.token })).status).toBe(403);
    expect((await s.api('DELETE', `/v1/integrations/conf/installations/${id}`, { token: editor.token })).status).toBe(403);
    const outsider = await addUser(s.ctx);
    expect((await s.api('GET', `/v1/integrations/conf/installations/${id}`, { token: outsider.token })).status).toBe(404);
    expect((await s.api('DELETE', `/v1/integrations/conf/installations/${id}`, { token: outsider.token })).status).toBe(204);
    expect((await s.api('GET', `/v1/integrations/conf/installations/${id}`)).body.status).toBe('active');
    const dup = await s.api('PATCH', `/v1/integrations/conf/installations/${id}`, { body: { externalIds: ['a', 'a'] } });
    expect(dup.status).toBe(400);
    expect(dup.body.error.message).toBe('externalIds: must not repeat an id');
  });

  it('uninstalls (205, then 204) with an installation_deleted event', async () => {
    await s.api('POST', '/v1/integrations/gone', { body: manifest(org) });
    const { id } = (await s.api('POST', '/v1/integrations/gone/installations', { body: { organization: org } })).body;
    await s.api('PATCH', `/v1/integrations/gone/installations/${id}`, { body: { configuration: { a: 1 } } });
    expect((await s.api('DELETE', `/v1/integrations/gone/installations/${id}`)).status).toBe(205);
    expect((await s.api('DELETE', `/v1/integrations/gone/installations/${id}`)).status).toBe(204);
    expect((await s.api('GET', `/v1/integrations/gone/installations/${id}`)).status).toBe(404);
    const latest = (await s.api('GET', '/v1/integrations/gone/events')).body.items[0];
    expect(latest.payload).toMatchObject({ type: 'installation_deleted', installationId: id, previous: { configuration: { a: 1 } } });
  });

  it('lists installations on spaces and sites (ids, or objects with extended=true), and counts spaces', async () => {
    const o = await newOrg(s, 'Content Org');
    const sp1 = (await s.api('POST', `/v1/orgs/${o}/spaces`, { body: { title: 'One' } })).body.id;
    const sp2 = (await s.api('POST', `/v1/orgs/${o}/spaces`, { body: { title: 'Two' } })).body.id;
    const site = (await s.api('POST', `/v1/orgs/${o}/sites`, { body: { title: 'Docs' } })).body.id;
    await s.api('POST', '/v1/integrations/content', { body: manifest(org, { visibility: 'public' }) });
    const inst = (await s.api('POST', '/v1/integrations/content/installations', { body: { organization: o } })).body;
    expect(inst.spaces).toBe(2);
    const spaces = (await s.api('GET', '/v1/integrations/content/spaces')).body;
    expect(spaces.items.map((x: any) => x.space)).toEqual([sp1, sp2]);
    expect(spaces.items[0]).toMatchObject({ integration: 'content', installation: inst.id, status: 'active' });
    const ext = (await s.api('GET', '/v1/integrations/content/spaces?extended=true')).body;
    expect(ext.items[0].space).toMatchObject({ object: 'space', id: sp1, title: 'One' });
    const sites = (await s.api('GET', '/v1/integrations/content/sites')).body;
    expect(sites.items.map((x: any) => x.site)).toEqual([site]);
    expect((await s.api('GET', '/v1/integrations/content/sites?extended=true')).body.items[0].site).toMatchObject({ object: 'site', id: site, title: 'Docs' });
    await s.api('DELETE', `/v1/spaces/${sp2}`);
    expect((await s.api('GET', `/v1/integrations/content/installations/${inst.id}`)).body.spaces).toBe(1);
    const sel = await s.api('PATCH', `/v1/integrations/content/installations/${inst.id}`, {
      body: { space_selection: 'selected', site_selection: 'selected' },
    });
    expect(sel.body.spaces).toBe(0);
    expect((await s.api('GET', '/v1/integrations/content/spaces')).body.count).toBe(0);
    expect((await s.api('GET', '/v1/integrations/content/sites')).body.count).toBe(0);
  });
});

describe('events', () => {
  it('are read by admins of the owner only, newest first, each with its trace', async () => {
    await s.api('POST', '/v1/integrations/ev', { body: manifest(org, { visibility: 'public' }) });
    const a = (await s.api('POST', '/v1/integrations/ev/installations', { body: { organization: org } })).body.id;
    await s.api('DELETE', `/v1/integrations/ev/installations/${a}`);
    const list = (await s.api('GET', '/v1/integrations/ev/events')).body;
    expect(list.items.map((e: any) => e.payload.type)).toEqual(['installation_deleted', 'installation_setup']);
    const one = await s.api('GET', `/v1/integrations/ev/events/${list.items[1].id}`);
    expect(one.body.event).toEqual(list.items[1]);
    expect(one.body.trace.logs[0]).toMatchObject({ level: 'info', message: 'event installation_setup received' });
    expect(one.body.trace.logs.at(-1).message).toMatch(/development mode is off/);
    const editor = await addUser(s.ctx, org, 'create');
    expect((await s.api('GET', '/v1/integrations/ev/events', { token: editor.token })).status).toBe(403);
    const outsider = await addUser(s.ctx);
    expect((await s.api('GET', '/v1/integrations/ev/events', { token: outsider.token })).status).toBe(403);
    expect((await s.api('GET', '/v1/integrations/ev/events/nope')).status).toBe(404);
    expect((await s.api('GET', '/v1/integrations/missing/events')).status).toBe(404);
  });
});
