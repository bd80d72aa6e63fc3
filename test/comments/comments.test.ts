import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/kernel/clock.js';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { CommentReplies } from '../../src/comments/tables.js';

// Space and change-request comments over HTTP (every answer checked against the contract).

let s: TestServer;
let clock: ManualClock;
let org: string;
let space: string;
let page: string;
let _owner: string;
let ann: { userId: string; token: string }; // comment level
let bob: { userId: string; token: string }; // comment level
let reader: { userId: string; token: string };

const tick = () => clock.advance(1000);
const url = (rest = '') => `/v1/spaces/${space}/comments${rest}`;
async function post(body: unknown, token?: string, base = url()) {
  tick();
  return s.api('POST', base, { body, token });
}

beforeAll(async () => {
  clock = new ManualClock();
  s = await startServer({ clock });
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  _owner = (await s.api('GET', '/v1/user')).body.id;
  space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Discussed' } })).body.id;
  const cr = (await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'Seed' } })).body;
  const r = await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/content?compat=false`, {
    body: { changes: [{ operation: 'insert_page', title: 'Home', document: { markdown: 'Welcome.' } }] },
  });
  page = r.body.changes[0].page.id;
  expect((await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`)).status).toBe(200);
  ann = await addUser(s.ctx, org, 'comment');
  bob = await addUser(s.ctx, org, 'comment');
  reader = await addUser(s.ctx, org, 'read');
});
afterAll(() => s.stop());

describe('space comments', () => {
  it('posts a comment on a page and reads it back (markdown, or a Document with format=document)', async () => {
    const c = await post({ body: { markdown: '  Is **this** right?  ' }, page }, ann.token);
    expect(c.status).toBe(200);
    const spaceRow = (await s.api('GET', `/v1/spaces/${space}`)).body;
    expect(c.body).toMatchObject({
      object: 'comment',
      postedBy: { id: ann.userId },
      body: { markdown: 'Is **this** right?' },
      status: 'open',
      replies: 0,
      repliers: [],
      reactions: [],
      target: { space, revision: spaceRow.revision, page: { id: page } },
      permissions: { view: true, edit: true, reply: true, delete: true },
    });
    expect(c.body.urls.location).toBe(`${s.url}${url('/' + c.body.id)}`);
    expect(c.body.editedAt).toBeUndefined();
    const got = await s.api('GET', url(`/${c.body.id}?format=document`));
    expect(got.body.body.document.nodes[0].type).toBe('paragraph');
    expect(got.body.body.document.nodes[0].nodes[0].leaves.map((l: any) => l.text)).toEqual(['Is ', 'this', ' right?']);
    // The Document form of a body is accepted too, and stored as markdown.
    const fromDoc = await post({ body: { document: got.body.body.document } }, ann.token);
    expect(fromDoc.body.body).toEqual({ markdown: 'Is **this** right?' });
    await s.api('DELETE', url(`/${fromDoc.body.id}`), { token: ann.token });
  });

  it('refuses bad bodies and targets with a 400 naming the field, and stores nothing', async () => {
    const before = (await s.api('GET', url())).body.count;
    const cases: [unknown, RegExp][] = [
      [{ body: {} }, /^body\.markdown: required/],
      [{ body: { markdown: '   \n' } }, /^body\.markdown: required, and must not be empty/],
      [{ body: { markdown: 'x'.repeat(65_537) } }, /^body\.markdown: must be at most 65536 characters/],
      [{ body: { markdown: 'x' }, page: 'nosuchpage' }, /^page: no page nosuchpage in space/],
      [{ body: { markdown: 'x' }, node: 'n1' }, /^node: needs page/],
      [{ body: { markdown: 'x' }, tableCell: { record: 'r', definition: 'd' } }, /^tableCell: needs page/],
      [{ body: { markdown: 'x' }, page, node: ' ' }, /^node: must be 1 to 255 characters/],
      [{ body: { markdown: 'x' }, colour: 'red' }, /colour/],
    ];
    for (const [body, message] of cases) {
      const r = await post(body, ann.token);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(r.body.error.message).toMatch(message);
    }
    expect((await s.api('GET', url())).body.count).toBe(before);
  });

  it('lists by postedAt (desc by default), filters by status, page and authors, and pages', async () => {
    const sp = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Lists' } })).body.id;
    const base = `/v1/spaces/${sp}/comments`;
    const a = (await post({ body: { markdown: 'first' } }, ann.token, base)).body;
    const b = (await post({ body: { markdown: 'second' } }, bob.token, base)).body;
    const c = (await post({ body: { markdown: 'third' } }, ann.token, base)).body;
    await s.api('PUT', `${base}/${b.id}`, { body: { resolved: true }, token: ann.token });
    const ids = async (q: string) => (await s.api('GET', `${base}${q}`)).body.items.map((x: any) => x.id);
    expect(await ids('')).toEqual([c.id, b.id, a.id]);
    expect(await ids('?order=asc')).toEqual([a.id, b.id, c.id]);
    expect(await ids('?status=open')).toEqual([c.id, a.id]);
    expect(await ids('?status=resolved')).toEqual([b.id]);
    expect(await ids(`?authors=${bob.userId}`)).toEqual([b.id]);
    expect(await ids(`?authors=${bob.userId}&authors=${ann.userId}&order=asc`)).toEqual([a.id, b.id, c.id]);
    expect(await ids(`?targetPage=${page}`)).toEqual([]);
    const first = await s.api('GET', `${base}?limit=2&order=asc`);
    expect(first.body.count).toBe(3);
    const second = await s.api('GET', `${base}?limit=2&order=asc&page=${first.body.next.page}`);
    expect(second.body.items.map((x: any) => x.id)).toEqual([c.id]);
    expect(second.body.next).toBeUndefined();
    const doc = await s.api('GET', `${base}?format=document`);
    expect(doc.body.items.every((x: any) => x.body.document?.object === 'document')).toBe(true);
    expect((await s.api('GET', `/v1/spaces/${sp}`)).body.comments).toBe(2);
  });

  it('resolving sets status, resolvedAt and resolvedBy and lowers the open count; reopening clears them', async () => {
    const count = async () => (await s.api('GET', `/v1/spaces/${space}`)).body.comments;
    const c = (await post({ body: { markdown: 'Typo here' } }, ann.token)).body;
    const open = await count();
    tick();
    const r = await s.api('PUT', url(`/${c.id}`), { body: { resolved: true }, token: bob.token });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'resolved', resolvedAt: clock.now().toISOString(), resolvedBy: { id: bob.userId } });
    expect(await count()).toBe(open - 1);
    tick();
    const again = await s.api('PUT', url(`/${c.id}`), { body: { resolved: true }, token: ann.token });
    expect(again.body.resolvedBy.id).toBe(bob.userId); // already resolved: who and when stay
    expect(again.body.resolvedAt).toBe(r.body.resolvedAt);
    const reopened = await s.api('PUT', url(`/${c.id}`), { body: { resolved: false }, token: ann.token });
    expect(reopened.body.status).toBe('open');
    expect(reopened.body.resolvedAt).toBeUndefined();
    expect(reopened.body.resolvedBy).toBeUndefined();
    expect(await count()).toBe(open);
  });

  it('only the author edits the body, which sets editedAt', async () => {
    const c = (await post({ body: { markdown: 'Draft' } }, ann.token)).body;
    const asBob = await s.api('GET', url(`/${c.id}`), { token: bob.token });
    expect(asBob.body.permissions).toEqual({ view: true, edit: false, reply: true, delete: false });
    const refused = await s.api('PUT', url(`/${c.id}`), { body: { body: { markdown: 'Hijacked' } }, token: bob.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/^body: only the author of comment/);
    // The owner is an organization admin: may delete, still may not edit someone else's words.
    expect((await s.api('GET', url(`/${c.id}`))).body.permissions).toEqual({ view: true, edit: false, reply: true, delete: true });
    expect((await s.api('PUT', url(`/${c.id}`), { body: { body: { markdown: 'Admin edit' } } })).status).toBe(403);
    tick();
    const edited = await s.api('PUT', url(`/${c.id}`), { body: { body: { markdown: 'Final' } }, token: ann.token });
    expect(edited.body).toMatchObject({ body: { markdown: 'Final' }, editedAt: clock.now().toISOString() });
    expect((await s.api('GET', url(`/${c.id}`))).body.body.markdown).toBe('Final');
  });

  it('aggregates reactions per emoji; a user reacts once per emoji', async () => {
    const c = (await post({ body: { markdown: 'Ship it?' } }, ann.token)).body;
    const react = (token: string, body: object) => (tick(), s.api('PUT', url(`/${c.id}`), { body, token }));
    await react(ann.token, { addedReactions: ['👍'] });
    const t1 = clock.now().toISOString();
    await react(bob.token, { addedReactions: ['👍', '🎉', '👍'] });
    const t2 = clock.now().toISOString();
    const twice = await react(ann.token, { addedReactions: ['👍'] });
    expect(twice.body.reactions).toEqual([
      {
        emoji: '👍',
        count: 2,
        users: [
          { user: expect.objectContaining({ id: ann.userId }), reactedAt: t1 },
          { user: expect.objectContaining({ id: bob.userId }), reactedAt: t2 },
        ],
      },
      { emoji: '🎉', count: 1, users: [{ user: expect.objectContaining({ id: bob.userId }), reactedAt: t2 }] },
    ]);
    const removed = await react(bob.token, { removedReactions: ['👍', '❤️'] });
    expect(removed.body.reactions.map((r: any) => [r.emoji, r.count])).toEqual([
      ['👍', 1],
      ['🎉', 1],
    ]);
    const flags = await react(bob.token, { addedReactions: ['🇫🇷', '👍🏽', '👨‍👩‍👧'] });
    expect(flags.body.reactions.map((r: any) => r.emoji)).toEqual(['👍', '🎉', '🇫🇷', '👍🏽', '👨‍👩‍👧']);
    for (const [body, message] of [
      [{ addedReactions: ['ok'] }, /^addedReactions\[0\]: must be a single emoji/],
      [{ addedReactions: ['👍👍'] }, /^addedReactions\[0\]: must be a single emoji/],
      [{ removedReactions: ['🎉', ''] }, /^removedReactions\[1\]: must be a single emoji/],
      [{ addedReactions: ['🎉'], removedReactions: ['🎉'] }, /^removedReactions: 🎉 is also in addedReactions/],
      [{}, /^body: give at least one of resolved, body, addedReactions, removedReactions/],
    ] as const) {
      const r = await s.api('PUT', url(`/${c.id}`), { body, token: ann.token });
      expect(r.status).toBe(400);
      expect(r.body.error.message).toMatch(message);
    }
    expect((await s.api('GET', url(`/${c.id}`))).body.reactions).toEqual(flags.body.reactions);
  });

  it('replies: list in order, counts and repliers stay true, author edits, author or admin deletes', async () => {
    const c = (await post({ body: { markdown: 'Question' } }, ann.token)).body;
    const replies = url(`/${c.id}/replies`);
    const r1 = (await post({ body: { markdown: 'One' } }, bob.token, replies)).body;
    const r2 = (await post({ body: { markdown: 'Two' } }, ann.token, replies)).body;
    const r3 = (await post({ body: { markdown: 'Three' } }, bob.token, replies)).body;
    expect(r1).toMatchObject({ object: 'comment-reply', postedBy: { id: bob.userId }, body: { markdown: 'One' }, reactions: [] });
    expect(r1.urls.location).toBe(`${s.url}${replies}/${r1.id}`);
    const list = await s.api('GET', replies);
    expect(list.body.items.map((r: any) => r.id)).toEqual([r1.id, r2.id, r3.id]);
    let got = (await s.api('GET', url(`/${c.id}`))).body;
    expect(got.replies).toBe(3);
    expect(got.repliers.map((r: any) => [r.user.id, r.count, r.updatedAt])).toEqual([
      [bob.userId, 2, r3.postedAt],
      [ann.userId, 1, r2.postedAt],
    ]);

    expect((await s.api('PUT', `${replies}/${r1.id}`, { body: { body: { markdown: 'Mine now' } }, token: ann.token })).status).toBe(403);
    tick();
    const edited = await s.api('PUT', `${replies}/${r1.id}`, { body: { body: { markdown: 'One, edited' } }, token: bob.token });
    expect(edited.body).toMatchObject({ body: { markdown: 'One, edited' }, editedAt: clock.now().toISOString() });
    const reacted = await s.api('PUT', `${replies}/${r1.id}`, { body: { addedReactions: ['👀'] }, token: ann.token });
    expect(reacted.body.reactions).toMatchObject([{ emoji: '👀', count: 1 }]);
    expect((await s.api('PUT', `${replies}/${r1.id}`, { body: { resolved: true } })).status).toBe(400); // not in the space form's schema
    expect((await s.api('GET', `${replies}/${r2.id}?format=document`)).body.body.document.object).toBe('document');

    const byAnn = await s.api('DELETE', `${replies}/${r3.id}`, { token: ann.token });
    expect(byAnn.status).toBe(403);
    expect(byAnn.body.error.message).toMatch(/author .* or an admin/);
    expect((await s.api('DELETE', `${replies}/${r3.id}`, { token: bob.token })).status).toBe(205);
    expect((await s.api('DELETE', `${replies}/${r3.id}`, { token: bob.token })).status).toBe(204);
    expect((await s.api('DELETE', `${replies}/${r2.id}`)).status).toBe(205); // an admin
    got = (await s.api('GET', url(`/${c.id}`))).body;
    expect(got.replies).toBe(1);
    expect(got.repliers.map((r: any) => [r.user.id, r.count])).toEqual([[bob.userId, 1]]);
    expect((await s.api('GET', `${replies}/${r3.id}`)).status).toBe(404);
  });

  it('deletes a comment with its replies: author or admin (205), nothing there (204)', async () => {
    const c = (await post({ body: { markdown: 'Remove me' } }, ann.token)).body;
    const reply = (await post({ body: { markdown: 'ok' } }, bob.token, url(`/${c.id}/replies`))).body;
    const refused = await s.api('DELETE', url(`/${c.id}`), { token: bob.token });
    expect(refused.status).toBe(403);
    expect((await s.api('DELETE', url(`/${c.id}`), { token: ann.token })).status).toBe(205);
    expect((await s.api('GET', url(`/${c.id}`))).status).toBe(404);
    expect((await s.api('GET', url(`/${c.id}/replies/${reply.id}`))).status).toBe(404);
    expect(await s.ctx.store.read((tx) => tx.get(CommentReplies, reply.id))).toBeUndefined();
    expect((await s.api('DELETE', url(`/${c.id}`), { token: ann.token })).status).toBe(204);
    expect((await s.api('DELETE', url(`/${c.id}/replies/${reply.id}`))).status).toBe(204);
    const other = (await post({ body: { markdown: 'By Bob' } }, bob.token)).body;
    expect((await s.api('DELETE', url(`/${other.id}`))).status).toBe(205); // organization admin
  });

  it('readers see discussions but may not take part (403 naming the comment level); outsiders get 404', async () => {
    const c = (await post({ body: { markdown: 'Visible' } }, ann.token)).body;
    const list = await s.api('GET', url(), { token: reader.token });
    expect(list.status).toBe(200);
    expect(list.body.items.find((x: any) => x.id === c.id).permissions).toEqual({ view: true, edit: false, reply: false, delete: false });
    for (const [method, path, body] of [
      ['POST', url(), { body: { markdown: 'hi' } }],
      ['POST', url(`/${c.id}/replies`), { body: { markdown: 'hi' } }],
      ['PUT', url(`/${c.id}`), { addedReactions: ['👍'] }],
      ['PUT', url(`/${c.id}`), { resolved: true }],
      ['DELETE', url(`/${c.id}`), undefined],
    ] as const) {
      const r = await s.api(method, path, { body, token: reader.token });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body.error.message).toMatch(/comment level|admin/);
    }
    expect((await s.api('GET', url(`/${c.id}`))).body).toMatchObject({ status: 'open', reactions: [], replies: 0 });
    const outsider = await addUser(s.ctx);
    expect((await s.api('GET', url(), { token: outsider.token })).status).toBe(404);
    expect((await s.api('GET', url(`/${c.id}`), { token: outsider.token })).status).toBe(404);
    expect((await s.api('POST', url(), { body: { body: { markdown: 'x' } }, token: outsider.token })).status).toBe(404);
  });

  it('a member whose level drops to read loses edit and delete on their own comment', async () => {
    const carol = await addUser(s.ctx, org, 'comment');
    const c = (await post({ body: { markdown: 'Mine' } }, carol.token)).body;
    await s.api('PATCH', `/v1/orgs/${org}/members/${carol.userId}`, { body: { role: 'read' } });
    expect((await s.api('GET', url(`/${c.id}`), { token: carol.token })).body.permissions).toEqual({ view: true, edit: false, reply: false, delete: false });
    expect((await s.api('DELETE', url(`/${c.id}`), { token: carol.token })).status).toBe(403);
  });

  it('duplicating a space copies its discussions, with their replies, to the copy', async () => {
    const sp = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Original' } })).body.id;
    const c = (await post({ body: { markdown: 'Keep me' } }, ann.token, `/v1/spaces/${sp}/comments`)).body;
    await post({ body: { markdown: 'And me' } }, bob.token, `/v1/spaces/${sp}/comments/${c.id}/replies`);
    const copy = (await s.api('POST', `/v1/spaces/${sp}/duplicate`)).body.id;
    const list = (await s.api('GET', `/v1/spaces/${copy}/comments`)).body;
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({ body: { markdown: 'Keep me' }, replies: 1, target: { space: copy } });
    expect(list.items[0].id).not.toBe(c.id);
    expect((await s.api('GET', `/v1/spaces/${copy}`)).body.comments).toBe(1);
  });

  it('comments on a locked space: discussions continue (editMode locks content only)', async () => {
    const locked = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Locked' } })).body.id;
    await s.api('PATCH', `/v1/spaces/${locked}`, { body: { editMode: 'locked' } });
    expect((await post({ body: { markdown: 'Still allowed' } }, undefined, `/v1/spaces/${locked}/comments`)).status).toBe(200);
  });
});

describe('change-request comments', () => {
  let cr: any;
  let crPage: string;
  const crUrl = (rest = '') => `/v1/spaces/${space}/change-requests/${cr.id}/comments${rest}`;
  beforeAll(async () => {
    cr = (await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'Review me' } })).body;
    const r = await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/content?compat=false`, {
      body: { changes: [{ operation: 'insert_page', title: 'New page', document: { markdown: 'Fresh.' } }] },
    });
    crPage = r.body.changes[0].page.id;
  });

  it("targets pages of the change request's revision; counts its open comments apart from the space's", async () => {
    const spaceCount = (await s.api('GET', `/v1/spaces/${space}`)).body.comments;
    const c = await post({ body: { markdown: 'Why this page?' }, page: crPage }, ann.token, crUrl());
    expect(c.status).toBe(200);
    const fresh = (await s.api('GET', `/v1/spaces/${space}/change-requests/${cr.id}`)).body;
    expect(c.body.target).toEqual({ space, revision: fresh.revision, changeRequest: cr.id, page: { id: crPage } });
    expect(c.body.urls.location).toBe(`${s.url}${crUrl('/' + c.body.id)}`);
    // The page exists only in the change request: a space comment cannot target it.
    const onSpace = await post({ body: { markdown: 'x' }, page: crPage }, ann.token);
    expect(onSpace.status).toBe(400);
    expect(onSpace.body.error.message).toMatch(/^page: no page/);
    expect(fresh.comments).toBe(1);
    expect((await s.api('GET', `/v1/spaces/${space}`)).body.comments).toBe(spaceCount);
    await s.api('PUT', crUrl(`/${c.body.id}`), { body: { resolved: true } });
    expect((await s.api('GET', `/v1/spaces/${space}/change-requests/${cr.number}`)).body.comments).toBe(0);
    await s.api('PUT', crUrl(`/${c.body.id}`), { body: { resolved: false } });
    expect((await s.api('GET', `/v1/spaces/${space}/change-requests/${cr.number}`)).body.comments).toBe(1);
  });

  it('reaches a comment only through its own change request (by id or number)', async () => {
    const c = (await post({ body: { markdown: 'Scoped' } }, ann.token, crUrl())).body;
    expect((await s.api('GET', `/v1/spaces/${space}/change-requests/${cr.number}/comments/${c.id}`)).status).toBe(200);
    expect((await s.api('GET', url(`/${c.id}`))).status).toBe(404);
    expect((await s.api('GET', url())).body.items.some((x: any) => x.id === c.id)).toBe(false);
    const other = (await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'Other' } })).body;
    expect((await s.api('GET', `/v1/spaces/${space}/change-requests/${other.id}/comments/${c.id}`)).status).toBe(404);
    expect((await s.api('GET', `/v1/spaces/${space}/change-requests/${other.id}/comments`)).body.count).toBe(0);
    expect((await s.api('GET', `/v1/spaces/${space}/change-requests/999/comments`)).status).toBe(404);
    expect((await s.api('DELETE', `/v1/spaces/${space}/change-requests/${other.id}/comments/${c.id}`)).status).toBe(204);
    expect((await s.api('GET', crUrl(`/${c.id}`))).status).toBe(200);
  });

  it('a reply of a change-request comment has no status: resolved is refused (400)', async () => {
    const c = (await post({ body: { markdown: 'Thread' } }, ann.token, crUrl())).body;
    const reply = (await s.api('POST', crUrl(`/${c.id}/replies?format=document`), { body: { body: { markdown: 'Sure' } }, token: bob.token })).body;
    expect(reply.body.document.object).toBe('document');
    const r = await s.api('PUT', crUrl(`/${c.id}/replies/${reply.id}`), { body: { resolved: true }, token: bob.token });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/^resolved: a reply has no status/);
  });

  it('lists the members who commented or replied, in the order they first did', async () => {
    const fresh = (await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'Commenters' } })).body;
    const base = `/v1/spaces/${space}/change-requests/${fresh.id}/comments`;
    const gone = await addUser(s.ctx, org, 'comment');
    const c = (await post({ body: { markdown: 'a' } }, bob.token, base)).body;
    await post({ body: { markdown: 'b' } }, gone.token, `${base}/${c.id}/replies`);
    await post({ body: { markdown: 'c' } }, ann.token, `${base}/${c.id}/replies`);
    await post({ body: { markdown: 'd' } }, bob.token, base);
    const commenters = `/v1/spaces/${space}/change-requests/${fresh.id}/commenters`;
    const list = await s.api('GET', commenters);
    expect(list.body.items.map((m: any) => m.id)).toEqual([bob.userId, gone.userId, ann.userId]);
    expect(list.body.items[0]).toMatchObject({ object: 'member', role: 'comment' });
    await s.api('DELETE', `/v1/orgs/${org}/members/${gone.userId}`);
    const after = await s.api('GET', `${commenters}?limit=1`);
    expect(after.body.count).toBe(2);
    expect(after.body.items.map((m: any) => m.id)).toEqual([bob.userId]);
    expect(after.body.next).toBeDefined();
    expect((await s.api('GET', commenters, { token: reader.token })).status).toBe(200);
    expect((await s.api('GET', `/v1/spaces/${space}/commenters`)).body.items.map((m: any) => m.id)).toContain(ann.userId);
  });
});
