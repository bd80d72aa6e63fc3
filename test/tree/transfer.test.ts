import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { Revisions, Spaces } from '../../src/spaces/tables.js';

let s: TestServer;
let owner: string;
beforeAll(async () => {
  s = await startServer();
  owner = (await s.api('GET', '/v1/user')).body.id;
});
afterAll(() => s.stop());

const newOrg = async (title: string, token?: string) => (await s.api('POST', '/v1/orgs', { body: { title }, token })).body.id as string;
const make = async (o: string, kind: 'spaces' | 'collections', body: object) => {
  const r = await s.api('POST', `/v1/orgs/${o}/${kind}`, { body });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
};

describe('transfer', () => {
  it('moves a space to the root of another organization, content and all', async () => {
    const from = await newOrg('From');
    const to = await newOrg('To');
    const c = await make(from, 'collections', { title: 'C' });
    const sp = await make(from, 'spaces', { title: 'Moving', parent: c.id, visibility: 'in-collection' });
    await make(to, 'spaces', { title: 'Already there' });
    const r = await s.api('POST', `/v1/spaces/${sp.id}/transfer`, { body: { organization: to } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: sp.id, organization: to, revision: sp.revision, visibility: 'private' });
    expect(r.body.parent).toBeUndefined();
    expect((await s.api('GET', `/v1/orgs/${to}/spaces`)).body.items.map((x: any) => x.title)).toEqual(['Already there', 'Moving']);
    expect((await s.api('GET', `/v1/collections/${c.id}/spaces`)).body.count).toBe(0);
    // The metadata row moved to the target organization's shard; the content stayed in its own.
    expect((await s.ctx.store.read((tx) => tx.get(Spaces, sp.id)))!.organization).toBe(to);
    expect((await s.ctx.store.read((tx) => tx.get(Revisions, sp.revision)))!.space).toBe(sp.id);
  });

  it('moves a collection with its whole tree, deleted spaces included', async () => {
    const from = await newOrg('Tree from');
    const to = await newOrg('Tree to');
    const top = await make(from, 'collections', { title: 'Top' });
    const sub = await make(from, 'collections', { title: 'Sub', parent: top.id });
    const a = await make(from, 'spaces', { title: 'A', parent: top.id });
    const b = await make(from, 'spaces', { title: 'B', parent: sub.id });
    const gone = await make(from, 'spaces', { title: 'Deleted', parent: sub.id });
    await s.api('DELETE', `/v1/spaces/${gone.id}`);
    const r = await s.api('POST', `/v1/collections/${top.id}/transfer`, { body: { organization: to } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: top.id, organization: to });
    expect(r.body.parent).toBeUndefined();
    expect((await s.api('GET', `/v1/orgs/${to}/collections`)).body.items.map((x: any) => [x.title, x.parent ?? null])).toEqual([
      ['Top', null],
      ['Sub', top.id],
    ]);
    expect((await s.api('GET', `/v1/orgs/${to}/spaces`)).body.items.map((x: any) => x.id)).toEqual([b.id, a.id]);
    expect((await s.api('GET', `/v1/orgs/${from}/collections`)).body.count).toBe(0);
    expect((await s.api('GET', `/v1/orgs/${from}/spaces`)).body.count).toBe(0);
    // The deleted space went along and comes back in its new organization.
    const restored = await s.api('POST', `/v1/spaces/${gone.id}/restore`);
    expect(restored.body).toMatchObject({ organization: to, parent: sub.id });
  });

  it('answers 409 when nothing would change and 404 for what the caller cannot see', async () => {
    const o = await newOrg('Stay');
    const sp = await make(o, 'spaces', { title: 'S' });
    const c = await make(o, 'collections', { title: 'C' });
    const same = await s.api('POST', `/v1/spaces/${sp.id}/transfer`, { body: { organization: o } });
    expect(same.status).toBe(409);
    expect(same.body.error.message).toBe(`nothing to change: space ${sp.id} is already in organization ${o}`);
    expect((await s.api('POST', `/v1/collections/${c.id}/transfer`, { body: { organization: o } })).status).toBe(409);
    expect((await s.api('POST', '/v1/spaces/nope/transfer', { body: { organization: o } })).status).toBe(404);
    expect((await s.api('POST', '/v1/collections/nope/transfer', { body: { organization: o } })).status).toBe(404);
    const missing = await s.api('POST', `/v1/spaces/${sp.id}/transfer`, { body: { organization: 'nope' } });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe('organization nope not found');
    // An organization the caller is not a member of is as good as missing.
    const stranger = await addUser(s.ctx);
    const theirs = await newOrg('Theirs', stranger.token);
    expect((await s.api('POST', `/v1/spaces/${sp.id}/transfer`, { body: { organization: theirs } })).status).toBe(404);
    expect((await s.api('POST', `/v1/spaces/${sp.id}/transfer`, { body: {} })).body.error.message).toBe('body.organization: is required');
  });

  it('needs the admin role in both organizations (403 naming which)', async () => {
    const from = await newOrg('Admin from');
    const to = await newOrg('Admin to');
    const sp = await make(from, 'spaces', { title: 'S' });
    const editor = await addUser(s.ctx, from, 'admin');
    await addMember(s.ctx, to, editor.userId, 'create');
    const r = await s.api('POST', `/v1/spaces/${sp.id}/transfer`, { body: { organization: to }, token: editor.token });
    expect(r.status).toBe(403);
    expect(r.body.error.message).toBe(`transferring space ${sp.id} needs the admin role in the target organization ${to} (you have create)`);
    const other = await addUser(s.ctx, from, 'create');
    await addMember(s.ctx, to, other.userId, 'admin');
    const r2 = await s.api('POST', `/v1/spaces/${sp.id}/transfer`, { body: { organization: to }, token: other.token });
    expect(r2.status).toBe(403);
    expect(r2.body.error.message).toBe(`transferring space ${sp.id} needs the admin role in this organization (you have create)`);
    expect((await s.api('GET', `/v1/spaces/${sp.id}`)).body.organization).toBe(from);
  });

  it('answers 412 when merge rules name reviewers who are not members of the target', async () => {
    const from = await newOrg('Rules from');
    const to = await newOrg('Rules to');
    const reviewer = await addUser(s.ctx, from, 'review');
    const c = await make(from, 'collections', { title: 'C' });
    const sp = await make(from, 'spaces', { title: 'Reviewed', parent: c.id });
    const rules = { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [reviewer.userId, owner] }] };
    expect((await s.api('PATCH', `/v1/spaces/${sp.id}`, { body: { mergeRules: rules } })).status).toBe(200);
    const r = await s.api('POST', `/v1/spaces/${sp.id}/transfer`, { body: { organization: to } });
    expect(r.status).toBe(412);
    expect(r.body.error.message).toBe(
      `space ${sp.id} cannot be moved: space ${sp.id}: its merge rules name reviewers who are not members of organization ${to} (${reviewer.userId})`,
    );
    const rc = await s.api('POST', `/v1/collections/${c.id}/transfer`, { body: { organization: to } });
    expect(rc.status).toBe(412);
    expect(rc.body.error.message).toContain(`collection ${c.id} cannot be moved: space ${sp.id}:`);
    expect((await s.api('GET', `/v1/spaces/${sp.id}`)).body.organization).toBe(from);
    // Once the reviewer is a member there too, nothing blocks.
    await addMember(s.ctx, to, reviewer.userId, 'review');
    expect((await s.api('POST', `/v1/collections/${c.id}/transfer`, { body: { organization: to } })).status).toBe(200);
    expect((await s.api('GET', `/v1/spaces/${sp.id}`)).body.organization).toBe(to);
  });
});
