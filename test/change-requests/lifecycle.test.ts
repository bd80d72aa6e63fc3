import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';

// PATCH of a change request: who may, which status moves, subject and description, and the
// space's change-request counts through PATCH and merge.

let s: TestServer;
let org: string;
beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
});
afterAll(() => s.stop());

const newSpace = async () => (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Docs' } })).body.id as string;
const newCr = async (space: string, token?: string) => {
  const r = await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'Edit' }, token });
  expect(r.status).toBe(201);
  return r.body;
};
const patch = (space: string, cr: string, body: object, token?: string) => s.api('PATCH', `/v1/spaces/${space}/change-requests/${cr}`, { body, token });
const counts = async (space: string) => {
  const b = (await s.api('GET', `/v1/spaces/${space}`)).body;
  return [b.changeRequests, b.changeRequestsOpen, b.changeRequestsDraft];
};

describe('PATCH change request', () => {
  it('moves among draft, open and archived; merged is final (409); the counts follow', async () => {
    const space = await newSpace();
    const [a, b, c] = [await newCr(space), await newCr(space), await newCr(space)];
    expect(await counts(space)).toEqual([3, 3, 0]);
    const draft = await patch(space, a.number, { status: 'draft' });
    expect(draft.status).toBe(200);
    expect(draft.body.status).toBe('draft');
    expect(await counts(space)).toEqual([3, 2, 1]);
    expect((await patch(space, a.id, { status: 'archived' })).body.status).toBe('archived');
    expect((await patch(space, a.id, { status: 'draft' })).body.status).toBe('draft');
    expect((await patch(space, a.id, { status: 'open' })).body.status).toBe('open');
    await patch(space, b.id, { status: 'archived' });
    expect(await counts(space)).toEqual([3, 2, 0]);
    // Lists follow the status.
    expect((await s.api('GET', `/v1/spaces/${space}/change-requests?status=archived`)).body.items.map((x: any) => x.id)).toEqual([b.id]);
    expect((await s.api('POST', `/v1/spaces/${space}/change-requests/${c.id}/merge`)).body.result).toBe('merge');
    expect(await counts(space)).toEqual([3, 1, 0]);
    const reopen = await patch(space, c.id, { status: 'open' });
    expect(reopen.status).toBe(409);
    expect(reopen.body.error.message).toBe(`status: change request ${c.number} is merged, which is final (it cannot become open)`);
    expect((await s.api('GET', `/v1/spaces/${space}/change-requests/${c.id}`)).body.status).toBe('merged');
    // A merged change request keeps its subject editable: it is not content.
    expect((await patch(space, c.id, { subject: 'Shipped' })).body).toMatchObject({ status: 'merged', subject: 'Shipped' });
    expect(await counts(space)).toEqual([3, 1, 0]);
  });

  it('sets subject (trimmed, at most 100) and description; refuses an empty body and unknown fields, changing nothing', async () => {
    const space = await newSpace();
    const cr = await newCr(space);
    const description = {
      object: 'document',
      data: {},
      nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Why this change', marks: [] }] }] }],
    };
    const r = await patch(space, cr.id, { subject: '  Fix the install guide  ', description });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ subject: 'Fix the install guide', description, status: 'open' });
    expect(r.body.updatedAt >= cr.updatedAt).toBe(true);
    expect((await s.api('GET', `/v1/spaces/${space}/change-requests/${cr.id}`)).body.description).toEqual(description);
    const long = await patch(space, cr.id, { subject: 'x'.repeat(101) });
    expect(long.status).toBe(400);
    expect(long.body.error.message).toMatch(/subject/);
    const empty = await patch(space, cr.id, {});
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toBe('body: give at least one of subject, description, status');
    expect((await patch(space, cr.id, { status: 'merged' })).status).toBe(400);
    expect((await patch(space, cr.id, { title: 'x' })).status).toBe(400);
    expect((await s.api('GET', `/v1/spaces/${space}/change-requests/${cr.id}`)).body).toMatchObject({ subject: 'Fix the install guide', status: 'open' });
  });

  it('the creator may change their own change request; others need edit on the space (403 naming it); outsiders 404', async () => {
    const space = await newSpace();
    const author = await addUser(s.ctx, org, 'edit');
    const cr = await newCr(space, author.token);
    const commenter = await addUser(s.ctx, org, 'comment');
    const denied = await patch(space, cr.id, { status: 'archived' }, commenter.token);
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toBe(
      `changing change request ${cr.number}, which you did not create, needs the edit level on space ${space} (you have comment)`,
    );
    const editor = await addUser(s.ctx, org, 'edit');
    expect((await patch(space, cr.id, { subject: 'By an editor' }, editor.token)).status).toBe(200);
    // The author keeps the right to close their own change request after losing edit.
    await addMember(s.ctx, org, author.userId, 'comment');
    expect((await patch(space, cr.id, { status: 'archived' }, author.token)).body.status).toBe('archived');
    const stranger = await addUser(s.ctx);
    expect((await patch(space, cr.id, { status: 'open' }, stranger.token)).status).toBe(404);
    expect((await s.api('GET', `/v1/spaces/${space}/change-requests/${cr.id}`)).body.status).toBe('archived');
  });

  it('works on a locked space (no content changes), where merging does not', async () => {
    const space = await newSpace();
    const cr = await newCr(space);
    await s.api('PATCH', `/v1/spaces/${space}`, { body: { editMode: 'locked' } });
    expect((await patch(space, cr.id, { status: 'draft' })).status).toBe(200);
    await patch(space, cr.id, { status: 'open' });
    const m = await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`);
    expect(m.status).toBe(403);
    expect(m.body.error.message).toMatch(/locked/);
    const u = await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/update`);
    expect(u.status).toBe(403);
  });
});
