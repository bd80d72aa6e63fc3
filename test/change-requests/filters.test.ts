import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let org: string;
beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
});
afterAll(() => s.stop());

const newSpace = async (title: string) => (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title } })).body.id as string;
const newCr = async (space: string, token: string, subject: string) =>
  (await s.api('POST', `/v1/spaces/${space}/change-requests`, { token, body: { subject } })).body;
const write = (space: string, cr: string, token: string) =>
  s.api('POST', `/v1/spaces/${space}/change-requests/${cr}/content`, {
    token,
    body: { changes: [{ operation: 'insert_page', title: `P${Math.random()}`, document: { markdown: 'x' } }] },
  });
const subjects = (r: { body: any }) => r.body.items.map((c: any) => c.subject);

describe('change request list filters', () => {
  it('creator, contributor (authored a revision in it), requestedReviewer (pending), combined with status', async () => {
    const space = await newSpace('Filters');
    const [ann, bob, rev] = [await addUser(s.ctx, org, 'edit'), await addUser(s.ctx, org, 'edit'), await addUser(s.ctx, org, 'review')];
    const a1 = await newCr(space, ann.token, 'ann one');
    const b1 = await newCr(space, bob.token, 'bob one');
    await newCr(space, ann.token, 'ann two');
    // Bob writes in Ann's change request: he is a contributor of it, Ann is not (she wrote nothing).
    await write(space, a1.id, bob.token);
    await write(space, b1.id, bob.token);
    const list = (q: string) => s.api('GET', `/v1/spaces/${space}/change-requests?${q}`);
    expect(subjects(await list(`creator=${ann.userId}`))).toEqual(['ann two', 'ann one']);
    expect(subjects(await list(`contributor=${bob.userId}`))).toEqual(['bob one', 'ann one']);
    expect(subjects(await list(`contributor=${ann.userId}`))).toEqual([]);
    expect(subjects(await list(`creator=${ann.userId}&contributor=${bob.userId}`))).toEqual(['ann one']);
    // Requested reviewer: listed while the review is pending, gone once reviewed.
    await s.api('POST', `/v1/spaces/${space}/change-requests/${b1.id}/requested-reviewers`, { token: bob.token, body: { users: [rev.userId] } });
    expect(subjects(await list(`requestedReviewer=${rev.userId}`))).toEqual(['bob one']);
    await s.api('POST', `/v1/spaces/${space}/change-requests/${b1.id}/reviews`, { token: rev.token, body: { status: 'approved' } });
    expect(subjects(await list(`requestedReviewer=${rev.userId}`))).toEqual([]);
    // Status: default open; merged ones only with status=merged.
    await s.api('POST', `/v1/spaces/${space}/change-requests/${b1.id}/merge`);
    expect(subjects(await list(`contributor=${bob.userId}`))).toEqual(['ann one']);
    expect(subjects(await list(`contributor=${bob.userId}&status=merged`))).toEqual(['bob one']);
    expect((await list('status=nope')).status).toBe(400);
    // Contributors of a change request, by the number of revisions they wrote.
    const contributors = await s.api('GET', `/v1/spaces/${space}/change-requests/${a1.id}/contributors`);
    expect(contributors.body.items.map((c: any) => [c.user.id, c.count, c.actionType])).toEqual([[bob.userId, 1, 'edit']]);
  });

  it('organization-wide: the same filters, over the spaces the caller can see, paginated', async () => {
    const [open, closed] = [await newSpace('Open space'), await newSpace('Closed space')];
    const ed = await addUser(s.ctx, org, 'edit');
    const x = await newCr(open, ed.token, 'org x');
    await newCr(closed, ed.token, 'org hidden');
    const y = await newCr(open, ed.token, 'org y');
    await write(open, y.id, ed.token);
    const orgList = (q: string, token?: string) => s.api('GET', `/v1/orgs/${org}/change-requests?${q}`, { token });
    expect(subjects(await orgList(`creator=${ed.userId}`, ed.token))).toEqual(['org y', 'org hidden', 'org x']);
    // Close one space to this member: its change requests leave their list.
    await s.api('PATCH', `/v1/spaces/${closed}`, { body: { defaultLevel: null } });
    expect(subjects(await orgList(`creator=${ed.userId}`, ed.token))).toEqual(['org y', 'org x']);
    expect(subjects(await orgList(`creator=${ed.userId}`))).toEqual(['org y', 'org hidden', 'org x']);
    expect(subjects(await orgList(`contributor=${ed.userId}`, ed.token))).toEqual(['org y']);
    const page1 = await orgList(`creator=${ed.userId}&limit=1`, ed.token);
    expect(page1.body).toMatchObject({ count: 2, items: [{ id: y.id }], next: { page: expect.any(String) } });
    const page2 = await orgList(`creator=${ed.userId}&limit=1&page=${page1.body.next.page}`, ed.token);
    expect(page2.body.items.map((c: any) => c.id)).toEqual([x.id]);
    expect(page2.body.next).toBeUndefined();
    const stranger = await addUser(s.ctx);
    expect((await orgList('', stranger.token)).status).toBe(404);
    expect((await orgList('conversationsIssuesCluster=nope')).status).toBe(400);
  });
});
