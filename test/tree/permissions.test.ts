import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../../src/auth/bootstrap.js';
import { DocsError } from '../../src/kernel/errors.js';
import { openContext } from '../../src/open.js';
import { createSpace, requireContentEdit } from '../../src/spaces/service.js';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { Members } from '../../src/organizations/tables.js';
import { Spaces } from '../../src/spaces/tables.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.stop());

const newOrg = async (title: string) => (await s.api('POST', '/v1/orgs', { body: { title } })).body.id as string;
const make = async (o: string, kind: 'spaces' | 'collections', body: object) => {
  const r = await s.api('POST', `/v1/orgs/${o}/${kind}`, { body });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
};
const patch = (path: string, body: object) => s.api('PATCH', path, { body });

describe('who sees and edits what', () => {
  it('non-members get 404 for everything of the organization; deleting answers 204', async () => {
    const o = await newOrg('Private org');
    const c = await make(o, 'collections', { title: 'C' });
    const sp = await make(o, 'spaces', { title: 'S' });
    const stranger = await addUser(s.ctx);
    const as = { token: stranger.token };
    for (const [method, path] of [
      ['GET', `/v1/spaces/${sp.id}`],
      ['GET', `/v1/collections/${c.id}`],
      ['GET', `/v1/collections/${c.id}/spaces`],
      ['GET', `/v1/orgs/${o}/spaces`],
      ['GET', `/v1/orgs/${o}/collections`],
    ]) {
      expect((await s.api(method!, path!, as)).status, path).toBe(404);
    }
    expect((await s.api('POST', `/v1/spaces/${sp.id}/move`, { ...as, body: { parent: null } })).status).toBe(404);
    expect((await s.api('POST', `/v1/orgs/${o}/spaces`, { ...as, body: {} })).status).toBe(404);
    expect((await s.api('DELETE', `/v1/spaces/${sp.id}`, as)).status).toBe(204);
    expect((await s.api('DELETE', `/v1/collections/${c.id}`, as)).status).toBe(204);
    expect((await s.api('GET', `/v1/spaces/${sp.id}`)).status).toBe(200);
    expect((await s.api('GET', `/v1/collections/${c.id}`)).status).toBe(200);
  });

  it('a reader reads, and gets 403 naming the missing level for the rest', async () => {
    const o = await newOrg('Readers');
    const sp = await make(o, 'spaces', { title: 'S' });
    const c = await make(o, 'collections', { title: 'C' });
    const reader = await addUser(s.ctx, o, 'read');
    const as = { token: reader.token };
    const got = await s.api('GET', `/v1/spaces/${sp.id}`, as);
    expect(got.body.permissions).toEqual({
      view: true,
      access: true,
      admin: false,
      viewInviteLinks: false,
      edit: false,
      triggerGitSync: false,
      comment: false,
      merge: false,
      review: false,
      installIntegration: false,
    });
    expect((await s.api('GET', `/v1/collections/${c.id}`, as)).body.permissions).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false });
    const checks: [string, string, object | undefined, string][] = [
      ['PATCH', `/v1/spaces/${sp.id}`, { title: 'x' }, `updating space ${sp.id} needs the admin level on space ${sp.id} (you have read)`],
      ['DELETE', `/v1/spaces/${sp.id}`, undefined, `deleting space ${sp.id} needs the admin level on space ${sp.id} (you have read)`],
      [
        'POST',
        `/v1/spaces/${sp.id}/duplicate`,
        undefined,
        'duplicating space ' + sp.id + " at the organization's root needs the create role in this organization (you have read)",
      ],
      ['POST', `/v1/spaces/${sp.id}/move`, { parent: c.id }, `moving space ${sp.id} needs the admin level on space ${sp.id} (you have read)`],
      [
        'POST',
        `/v1/orgs/${o}/spaces`,
        { title: 'x' },
        "creating a space at the organization's root needs the create role in this organization (you have read)",
      ],
      [
        'POST',
        `/v1/orgs/${o}/collections`,
        { title: 'x' },
        "creating a collection at the organization's root needs the create role in this organization (you have read)",
      ],
      ['PATCH', `/v1/collections/${c.id}`, { title: 'x' }, `updating collection ${c.id} needs the admin level on collection ${c.id} (you have read)`],
      ['DELETE', `/v1/collections/${c.id}`, undefined, `deleting collection ${c.id} needs the admin level on collection ${c.id} (you have read)`],
      [
        'POST',
        `/v1/collections/${c.id}/move`,
        { parent: null, position: {} },
        `moving collection ${c.id} needs the admin level on collection ${c.id} (you have read)`,
      ],
    ];
    for (const [method, path, body, message] of checks) {
      const r = await s.api(method, path, { ...as, body });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body.error.message).toBe(message);
    }
    expect((await s.api('GET', `/v1/spaces/${sp.id}`)).body.title).toBe('S');
    expect((await s.api('GET', `/v1/orgs/${o}/spaces`)).body.count).toBe(1);
  });

  it('defaultLevel on a collection opens it up for the spaces inside; create there but not at the root', async () => {
    const o = await newOrg('Open collection');
    const c = await make(o, 'collections', { title: 'Team' });
    const inside = await make(o, 'spaces', { title: 'Inside', parent: c.id });
    const outside = await make(o, 'spaces', { title: 'Outside' });
    const reader = await addUser(s.ctx, o, 'read');
    const as = { token: reader.token };
    await patch(`/v1/collections/${c.id}`, { defaultLevel: 'create' });
    expect((await s.api('GET', `/v1/collections/${c.id}`, as)).body.permissions).toMatchObject({ create: true, admin: false });
    expect((await s.api('GET', `/v1/spaces/${inside.id}`, as)).body.permissions).toMatchObject({ edit: true, merge: true, review: true, admin: false });
    expect((await s.api('GET', `/v1/spaces/${outside.id}`, as)).body.permissions).toMatchObject({ edit: false, view: true });
    const created = await s.api('POST', `/v1/orgs/${o}/spaces`, { ...as, body: { title: 'Mine', parent: c.id } });
    expect(created.status).toBe(201);
    expect(created.body.permissions.admin).toBe(false);
    expect((await s.api('POST', `/v1/orgs/${o}/spaces`, { ...as, body: { title: 'Root' } })).status).toBe(403);
    // The space can close itself again, whatever its collection says.
    await patch(`/v1/spaces/${inside.id}`, { defaultLevel: 'comment' });
    expect((await s.api('GET', `/v1/spaces/${inside.id}`, as)).body.permissions).toMatchObject({ edit: false, comment: true });
    // Moving into a collection where the caller cannot create is refused.
    await patch(`/v1/spaces/${outside.id}`, { defaultLevel: 'admin' });
    const locked = await make(o, 'collections', { title: 'Read only' });
    const r = await s.api('POST', `/v1/spaces/${outside.id}/move`, { ...as, body: { parent: locked.id } });
    expect(r.status).toBe(403);
    expect(r.body.error.message).toBe(
      `moving space ${outside.id} into collection ${locked.id} needs the create level on collection ${locked.id} (you have read)`,
    );
    expect((await s.api('POST', `/v1/spaces/${outside.id}/move`, { ...as, body: { parent: c.id } })).status).toBe(200);
  });

  it('defaultLevel null hides a space or a collection from members, never from organization admins', async () => {
    const o = await newOrg('Hidden');
    const c = await make(o, 'collections', { title: 'Secret' });
    const inC = await make(o, 'spaces', { title: 'In secret', parent: c.id });
    const sp = await make(o, 'spaces', { title: 'Secret space' });
    await make(o, 'spaces', { title: 'Open' });
    await patch(`/v1/collections/${c.id}`, { defaultLevel: null });
    await patch(`/v1/spaces/${sp.id}`, { defaultLevel: null });
    const editor = await addUser(s.ctx, o, 'edit');
    const as = { token: editor.token };
    expect((await s.api('GET', `/v1/orgs/${o}/spaces`, as)).body.items.map((x: any) => x.title)).toEqual(['Open']);
    expect((await s.api('GET', `/v1/orgs/${o}/collections`, as)).body.count).toBe(0);
    expect((await s.api('GET', `/v1/spaces/${sp.id}`, as)).status).toBe(404);
    expect((await s.api('GET', `/v1/spaces/${inC.id}`, as)).status).toBe(404);
    expect((await s.api('GET', `/v1/collections/${c.id}`, as)).status).toBe(404);
    expect((await s.api('GET', `/v1/orgs/${o}/spaces`)).body.count).toBe(3);
    // Guests reach no content at all.
    const guest = await addUser(s.ctx, o, null);
    expect((await s.api('GET', `/v1/orgs/${o}/spaces`, { token: guest.token })).body.count).toBe(0);
  });

  it('deleting a collection needs admin on everything inside it', async () => {
    const o = await newOrg('Delete rights');
    const c = await make(o, 'collections', { title: 'Shared' });
    const mine = await make(o, 'spaces', { title: 'Mine', parent: c.id });
    const theirs = await make(o, 'spaces', { title: 'Theirs', parent: c.id });
    await patch(`/v1/collections/${c.id}`, { defaultLevel: 'admin' });
    await patch(`/v1/spaces/${theirs.id}`, { defaultLevel: 'edit' });
    const member = await addUser(s.ctx, o, 'edit');
    const r = await s.api('DELETE', `/v1/collections/${c.id}`, { token: member.token });
    expect(r.status).toBe(403);
    expect(r.body.error.message).toBe(`deleting collection ${c.id} needs the admin level on space ${theirs.id} inside it (you have edit)`);
    expect((await s.api('GET', `/v1/spaces/${mine.id}`)).status).toBe(200);
    await patch(`/v1/spaces/${theirs.id}`, { defaultLevel: 'inherit' });
    expect((await s.api('DELETE', `/v1/collections/${c.id}`, { token: member.token })).status).toBe(205);
  });
});

describe('a locked space refuses content edits', () => {
  it('requireContentEdit: 403 when locked, whoever asks; 403 below edit; the space when allowed', async () => {
    const ctx = await openContext(undefined);
    const boot = (await bootstrap(ctx, 'gb_api_x'))!;
    const caller = { userId: boot.userId };
    const org = await ctx.store.read((tx) => tx.find(Members, 'user', boot.userId)[0].organization);
    const { row } = await ctx.store.write((tx) => createSpace(tx, ctx, caller, org, { title: 'Lockable', editMode: 'locked' }));
    const attempt = () => ctx.store.read((tx) => requireContentEdit(tx, caller, row.id));
    await expect(attempt()).rejects.toThrow(
      new DocsError('forbidden', `space ${row.id} is locked (editMode: locked): its content cannot be edited until an admin sets editMode to live`),
    );
    await ctx.store.write((tx) => tx.put(Spaces, { ...row, editMode: 'live' }));
    expect((await attempt()).row.id).toBe(row.id);
    await ctx.store.write((tx) => tx.put(Spaces, { ...row, editMode: 'live', defaultLevel: 'comment' }));
    const reader = await addUser(ctx, org, 'read');
    await expect(ctx.store.read((tx) => requireContentEdit(tx, { userId: reader.userId }, row.id))).rejects.toThrow(
      `editing the content of space ${row.id} needs the edit level on space ${row.id} (you have comment)`,
    );
    await ctx.store.close();
  });
});
