import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';

// Three-way merge of change requests into the space, and update of a change request from the
// space, over HTTP (every answer checked against the contract).

let s: TestServer;
let org: string;
beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
});
afterAll(() => s.stop());

const BODY = 'Line one.\n\nLine two.\n\nLine three.\n\nLine four.\n';

const api = { cr: (space: string, cr: string) => `/v1/spaces/${space}/change-requests/${cr}` };
const newCr = async (space: string, subject = 'Edit') => (await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject } })).body;
const edit = async (space: string, cr: string, changes: object[]) => {
  const r = await s.api('POST', `${api.cr(space, cr)}/content?compat=false`, { body: { changes } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
};
const merge = (space: string, cr: string) => s.api('POST', `${api.cr(space, cr)}/merge`);
const update = (space: string, cr: string) => s.api('POST', `${api.cr(space, cr)}/update`);
const getCr = async (space: string, cr: string) => (await s.api('GET', api.cr(space, cr))).body;
const spaceRev = async (space: string) => (await s.api('GET', `/v1/spaces/${space}`)).body.revision as string;
const markdown = async (space: string, page: string) => (await s.api('GET', `/v1/spaces/${space}/content/page/${page}`)).body.markdown as string;
const crMarkdown = async (space: string, cr: string, page: string) => (await s.api('GET', `${api.cr(space, cr)}/content/page/${page}`)).body.markdown as string;
const setBody = (page: string, md: string) => ({ operation: 'update_page', page, document: { markdown: md } });

/** A space with two merged pages, Guide (BODY) and Setup. */
async function seeded() {
  const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Docs' } })).body.id as string;
  const seed = await newCr(space, 'Seed');
  const r = await edit(space, seed.id, [
    { operation: 'insert_page', title: 'Guide', document: { markdown: BODY } },
    { operation: 'insert_page', title: 'Setup', document: { markdown: 'Install it.' } },
  ]);
  expect((await merge(space, seed.id)).body.result).toBe('merge');
  const [guide, setup] = r.changes.map((c: any) => c.page.id as string);
  return { space, guide: guide!, setup: setup! };
}

describe('merge', () => {
  it('merges changes to different pages made on both sides: parents are both sides, the change request is merged', async () => {
    const { space, guide, setup } = await seeded();
    const a = await newCr(space, 'Guide');
    const b = await newCr(space, 'Setup');
    await edit(space, a.id, [setBody(guide, 'A new guide.')]);
    await edit(space, b.id, [setBody(setup, 'Install it with npm.')]);
    expect((await getCr(space, b.id)).outdated).toBe(false);
    await merge(space, a.id);
    const before = await spaceRev(space);
    const bNow = await getCr(space, b.id);
    expect(bNow.outdated).toBe(true);
    const m = await merge(space, b.number);
    expect(m.status).toBe(200);
    expect(m.body).toEqual({ revision: expect.any(String), result: 'merge' });
    const rev = (await s.api('GET', `/v1/spaces/${space}/content`)).body;
    expect(rev).toMatchObject({ id: m.body.revision, type: 'merge', parents: [before, bNow.revision], mergedFrom: { id: b.id } });
    expect(rev.pages.map((p: any) => p.title)).toEqual(['Guide', 'Setup']);
    expect(await markdown(space, guide)).toBe('A new guide.\n');
    expect(await markdown(space, setup)).toBe('Install it with npm.\n');
    const done = await getCr(space, b.id);
    expect(done).toMatchObject({
      status: 'merged',
      revisionMerged: m.body.revision,
      mergedBy: { id: expect.any(String) },
      mergedAt: expect.any(String),
      outdated: false,
    });
  });

  it('merges non-overlapping edits of the same page line by line (diff3): both edits are in the result', async () => {
    const { space, guide } = await seeded();
    const a = await newCr(space);
    const b = await newCr(space);
    await edit(space, a.id, [setBody(guide, BODY.replace('Line one.', 'Line one, edited by A.'))]);
    await edit(space, b.id, [setBody(guide, BODY.replace('Line four.', 'Line four, edited by B.'))]);
    await merge(space, a.id);
    expect((await merge(space, b.id)).body.result).toBe('merge');
    expect(await markdown(space, guide)).toBe('Line one, edited by A.\n\nLine two.\n\nLine three.\n\nLine four, edited by B.\n');
  });

  it('keeps pages added on both sides, in order, and a metadata edit on one side with a body edit on the other', async () => {
    const { space, guide } = await seeded();
    const a = await newCr(space);
    const b = await newCr(space);
    await edit(space, a.id, [
      { operation: 'insert_page', title: 'From A', document: { markdown: 'a' } },
      { operation: 'update_page', page: guide, title: 'The guide' },
    ]);
    await edit(space, b.id, [{ operation: 'insert_page', title: 'From B', document: { markdown: 'b' } }, setBody(guide, 'Rewritten.')]);
    await merge(space, a.id);
    expect((await merge(space, b.id)).body.result).toBe('merge');
    const pages = (await s.api('GET', `/v1/spaces/${space}/content/pages`)).body.pages;
    expect(pages.map((p: any) => p.title)).toEqual(['The guide', 'Setup', 'From A', 'From B']);
    expect(pages[0].markdown).toBe('Rewritten.\n');
  });

  it('overlapping edits answer result conflicts, list them, and change nothing', async () => {
    const { space, guide, setup } = await seeded();
    const a = await newCr(space);
    const b = await newCr(space);
    await edit(space, a.id, [setBody(guide, BODY.replace('Line two.', 'Line two by A.')), { operation: 'delete_page', page: setup }]);
    await edit(space, b.id, [setBody(guide, BODY.replace('Line two.', 'Line two by B.')), setBody(setup, 'Install it twice.')]);
    await merge(space, a.id);
    const spaceBefore = (await s.api('GET', `/v1/spaces/${space}`)).body;
    const crBefore = await getCr(space, b.id);
    const m = await merge(space, b.id);
    expect(m.status).toBe(200);
    expect(m.body).toEqual({
      revision: spaceBefore.revision,
      result: 'conflicts',
      conflicts: [
        { kind: 'content', page: guide, title: 'Guide', path: 'guide' },
        { kind: 'deleted', page: setup, title: 'Setup', path: 'setup' },
      ],
    });
    expect(await s.api('GET', `/v1/spaces/${space}`).then((r) => r.body)).toEqual(spaceBefore);
    expect(await getCr(space, b.id)).toEqual(crBefore);
    expect(await markdown(space, guide)).toBe(BODY.replace('Line two.', 'Line two by A.'));
  });

  it('two pages given one slug at the same place are a conflict (their paths would clash)', async () => {
    const { space } = await seeded();
    const a = await newCr(space);
    const b = await newCr(space);
    await edit(space, a.id, [{ operation: 'insert_page', title: 'FAQ', document: { markdown: 'a' } }]);
    const added = await edit(space, b.id, [{ operation: 'insert_page', title: 'FAQ', document: { markdown: 'b' } }]);
    await merge(space, a.id);
    const m = await merge(space, b.id);
    expect(m.body.result).toBe('conflicts');
    expect(m.body.conflicts).toEqual([{ kind: 'slug', page: added.changes[0].page.id, title: 'FAQ', path: 'faq' }]);
  });

  it('a move on one side with an edit on the other merges; each side moving a page under the other is a conflict', async () => {
    const { space, guide, setup } = await seeded();
    const a = await newCr(space);
    const b = await newCr(space);
    await edit(space, a.id, [{ operation: 'update_page', page: setup, into: guide }]);
    await edit(space, b.id, [setBody(setup, 'Moved and edited.')]);
    await merge(space, a.id);
    expect((await merge(space, b.id)).body.result).toBe('merge');
    expect((await s.api('GET', `/v1/spaces/${space}/content/path/guide%2Fsetup`)).body.markdown).toBe('Moved and edited.\n');
    // Each side nests one page under the other: merged field by field, they would form a loop.
    const fresh = await seeded();
    const x = await newCr(fresh.space);
    const y = await newCr(fresh.space);
    await edit(fresh.space, x.id, [{ operation: 'update_page', page: fresh.setup, into: fresh.guide }]);
    await edit(fresh.space, y.id, [{ operation: 'update_page', page: fresh.guide, into: fresh.setup }]);
    await merge(fresh.space, x.id);
    const m = await merge(fresh.space, y.id);
    expect(m.body.result).toBe('conflicts');
    expect(m.body.conflicts.map((c: any) => [c.kind, c.title]).sort()).toEqual([
      ['moved', 'Guide'],
      ['moved', 'Setup'],
    ]);
  });

  it('refuses merged, archived and draft change requests (409), and callers below review (403)', async () => {
    const { space } = await seeded();
    const cr = await newCr(space);
    await s.api('PATCH', api.cr(space, cr.id), { body: { status: 'draft' } });
    expect((await merge(space, cr.id)).body.error.message).toBe(`change request ${cr.number} is a draft: set its status to open to merge it`);
    await s.api('PATCH', api.cr(space, cr.id), { body: { status: 'archived' } });
    const archived = await merge(space, cr.id);
    expect(archived.status).toBe(409);
    expect(archived.body.error.message).toBe(`change request ${cr.number} is archived: set its status to open to merge it`);
    await s.api('PATCH', api.cr(space, cr.id), { body: { status: 'open' } });
    const editor = await addUser(s.ctx, org, 'edit');
    expect((await s.api('POST', `${api.cr(space, cr.id)}/merge`, { token: editor.token })).status).toBe(403);
    expect((await merge(space, cr.id)).body.result).toBe('merge');
    const again = await merge(space, cr.id);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(`change request ${cr.number} is already merged`);
  });
});

describe('update', () => {
  it('brings the space into the change request: new revision with both parents, base moved, outdated cleared; then merges', async () => {
    const { space, guide, setup } = await seeded();
    const a = await newCr(space);
    const b = await newCr(space);
    await edit(space, a.id, [setBody(guide, 'Guide by A.')]);
    await edit(space, b.id, [setBody(setup, 'Setup by B.')]);
    await merge(space, a.id);
    const current = await spaceRev(space);
    const before = await getCr(space, b.id);
    expect(before.outdated).toBe(true);
    expect(before.revisionMergedAncestor).toBeUndefined();
    const u = await update(space, b.id);
    expect(u.status).toBe(200);
    expect(u.body).toEqual({ revision: expect.any(String), result: 'update' });
    const after = await getCr(space, b.id);
    expect(after).toMatchObject({
      revision: u.body.revision,
      revisionMergedAncestor: current,
      revisionInitial: before.revisionInitial,
      outdated: false,
      status: 'open',
    });
    const rev = (await s.api('GET', `${api.cr(space, b.id)}/content`)).body;
    expect(rev).toMatchObject({ type: 'update', parents: [before.revision, current] });
    expect(await crMarkdown(space, b.id, guide)).toBe('Guide by A.\n');
    expect(await crMarkdown(space, b.id, setup)).toBe('Setup by B.\n');
    // Up to date: nothing to do, the same revision.
    expect((await update(space, b.id)).body).toEqual({ revision: u.body.revision, result: 'update' });
    // The base is now the space's revision: the merge takes the change request as it is.
    const m = await merge(space, b.id);
    expect(m.body.result).toBe('merge');
    expect(await markdown(space, guide)).toBe('Guide by A.\n');
    expect(await markdown(space, setup)).toBe('Setup by B.\n');
    const u2 = await update(space, b.id);
    expect(u2.status).toBe(409);
    expect(u2.body.error.message).toBe(`change request ${b.number} is merged: it can no longer be updated`);
  });

  it('an update that overlaps answers conflicts and changes nothing; outdated stays true', async () => {
    const { space, guide } = await seeded();
    const a = await newCr(space);
    const b = await newCr(space);
    await edit(space, a.id, [setBody(guide, 'Guide by A.')]);
    await edit(space, b.id, [setBody(guide, 'Guide by B.')]);
    await merge(space, a.id);
    const before = await getCr(space, b.id);
    const u = await update(space, b.id);
    expect(u.body).toEqual({ revision: before.revision, result: 'conflicts', conflicts: [{ kind: 'content', page: guide, title: 'Guide', path: 'guide' }] });
    expect(await getCr(space, b.id)).toEqual(before);
    expect(before.outdated).toBe(true);
  });

  it('needs edit on the space (403 for readers), works on archived change requests, and revert_page then reverts to the new base', async () => {
    const { space, guide } = await seeded();
    const a = await newCr(space);
    const b = await newCr(space);
    await edit(space, a.id, [setBody(guide, 'Guide by A.')]);
    await edit(space, b.id, [{ operation: 'insert_page', title: 'New', document: { markdown: 'new' } }]);
    await merge(space, a.id);
    const reader = await addUser(s.ctx, org, 'read');
    const denied = await s.api('POST', `${api.cr(space, b.id)}/update`, { token: reader.token });
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toMatch(/needs the edit level/);
    await s.api('PATCH', api.cr(space, b.id), { body: { status: 'archived' } });
    expect((await update(space, b.id)).body.result).toBe('update');
    await s.api('PATCH', api.cr(space, b.id), { body: { status: 'open' } });
    await edit(space, b.id, [setBody(guide, 'Edited in B.')]);
    await edit(space, b.id, [{ operation: 'revert_page', page: guide }]);
    expect(await crMarkdown(space, b.id, guide)).toBe('Guide by A.\n');
  });
});
