import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { Revisions } from '../../src/spaces/tables.js';

let s: TestServer;
let org: string;
beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
});
afterAll(() => s.stop());

const newOrg = async (title: string) => (await s.api('POST', '/v1/orgs', { body: { title } })).body.id as string;
const space = async (o: string, body: object = {}) => {
  const r = await s.api('POST', `/v1/orgs/${o}/spaces`, { body });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
};

describe('spaces: create and get', () => {
  it('creates with 201 and Location, defaults, an initial revision and counts', async () => {
    const r = await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Handbook', emoji: '📘', language: 'fr' } });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(`${s.url}/v1/spaces/${r.body.id}`);
    expect(r.body).toMatchObject({
      object: 'space',
      title: 'Handbook',
      emoji: '📘',
      language: 'fr',
      organization: org,
      visibility: 'private',
      editMode: 'live',
      mergeRules: { type: 'inherit' },
      defaultLevel: 'inherit',
      comments: 0,
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
    });
    expect(r.body.revision).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(r.body.urls).toEqual({ location: `${s.url}/v1/spaces/${r.body.id}`, app: `${s.url}/o/${org}/s/${r.body.id}` });
    // The initial revision is a real row of the space's own shard.
    const rev = await s.ctx.store.read((tx) => tx.get(Revisions, r.body.revision));
    expect(rev).toMatchObject({ space: r.body.id, parents: [], type: 'edits' });
    expect((await s.api('GET', `/v1/spaces/${r.body.id}`)).body).toEqual(r.body);
    const bare = await s.api('POST', `/v1/orgs/${org}/spaces`);
    expect(bare.body).toMatchObject({ title: 'Untitled', emoji: '' });
  });

  it('takes visibility and icon, and derives urls.published, .public and .icon from them', async () => {
    const pub = await space(org, { title: 'Public', visibility: 'public', icon: 'https://example.com/i.png' });
    expect(pub.urls).toMatchObject({ published: `${s.url}/p/${pub.id}`, public: `${s.url}/p/${pub.id}`, icon: 'https://example.com/i.png' });
    const shared = await space(org, { title: 'Shared', visibility: 'share-link' });
    expect(shared.urls.public).toBeUndefined();
    expect(shared.urls.published).toBe(`${s.url}/p/${shared.id}`);
    const withKey = await s.api('GET', `/v1/spaces/${shared.id}?shareKey=k%201`);
    expect(withKey.body.urls.published).toBe(`${s.url}/p/${shared.id}?share=k%201`);
    // A share key means nothing for a space that is not shared by link.
    expect((await s.api('GET', `/v1/spaces/${pub.id}?shareKey=k`)).body.urls.published).toBe(`${s.url}/p/${pub.id}`);
  });

  it('refuses bad input with the field and the rule, creating nothing', async () => {
    const o = await newOrg('Space refusals');
    const revisions = () => s.ctx.store.read((tx) => tx.all(Revisions).length);
    const before = await revisions();
    const bad = async (body: object, message: string) => {
      const r = await s.api('POST', `/v1/orgs/${o}/spaces`, { body });
      expect(r.status).toBe(400);
      expect(r.body.error.message).toBe(message);
    };
    await bad({ title: 'x'.repeat(51) }, 'body.title: must NOT have more than 50 characters');
    await bad({ title: ' ' }, 'title: must be 1 to 50 characters');
    await bad({ visibility: 'in-collection' }, 'visibility: in-collection is only for spaces in a collection (give parent)');
    await bad({ visibility: 'everyone' }, 'visibility: must be one of public, unlisted, share-link, visitor-auth, in-collection, private');
    await bad({ parent: 'nope' }, 'parent: no collection nope in this organization');
    await bad({ emoji: 'abc' }, 'body.emoji: must match format "emoji"');
    await bad({ emoji: '📘', icon: 'https://example.com/i.png' }, 'icon: give emoji or icon, not both');
    await bad({ icon: 'ftp://example.com/i.png' }, 'icon: must be an http(s) URL of at most 2048 characters');
    await bad({ template: { id: 't' } }, 'template: space templates are not available on this server yet');
    await bad(
      { title: 'Ok', owner: 'me' },
      'owner: cannot be set with POST /orgs/{organizationId}/spaces (accepted: title, emoji, icon, parent, language, editMode, visibility, empty)',
    );
    expect((await s.api('GET', `/v1/orgs/${o}/spaces`)).body).toEqual({ items: [], count: 0 });
    expect(await revisions()).toBe(before);
  });

  it('answers 404 for a space that does not exist', async () => {
    expect((await s.api('GET', '/v1/spaces/nope')).status).toBe(404);
    expect((await s.api('GET', '/v1/spaces/nope')).body.error.message).toBe('space nope not found');
  });
});

describe('spaces: update', () => {
  it('changes only editMode, title, defaultLevel, language, mergeRules, emoji (or icon)', async () => {
    const sp = await space(org, { title: 'Patch me', emoji: '📘' });
    const r = await s.api('PATCH', `/v1/spaces/${sp.id}`, {
      body: { title: 'Patched', editMode: 'locked', defaultLevel: 'read', language: 'de', mergeRules: { type: 'none' }, emoji: '🚀' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ title: 'Patched', editMode: 'locked', defaultLevel: 'read', language: 'de', mergeRules: { type: 'none' }, emoji: '🚀' });
    // Locked: the booleans that write content are false, even for an admin.
    expect(r.body.permissions).toMatchObject({ admin: true, edit: false, merge: false, triggerGitSync: false, comment: true });
    // An icon replaces the emoji; null clears it.
    const icon = await s.api('PATCH', `/v1/spaces/${sp.id}`, { body: { icon: 'https://example.com/x.png' } });
    expect(icon.body).toMatchObject({ emoji: '', urls: { icon: 'https://example.com/x.png' } });
    const cleared = await s.api('PATCH', `/v1/spaces/${sp.id}`, { body: { icon: null } });
    expect(cleared.body.urls.icon).toBeUndefined();
    expect(cleared.body.updatedAt >= sp.updatedAt).toBe(true);
  });

  it('refuses every other field with 400 instead of ignoring it, changing nothing', async () => {
    const sp = await space(org, { title: 'Strict' });
    for (const [body, message] of [
      [
        { visibility: 'public' },
        'visibility: cannot be set with PATCH /spaces/{spaceId} (accepted: editMode, title, defaultLevel, language, mergeRules, emoji, icon)',
      ],
      [
        { title: 'Ok', parent: 'x' },
        'parent: cannot be set with PATCH /spaces/{spaceId} (accepted: editMode, title, defaultLevel, language, mergeRules, emoji, icon)',
      ],
      [{}, 'body: give at least one of editMode, title, defaultLevel, language, mergeRules, emoji, icon'],
      [{ editMode: 'frozen' }, 'body.editMode: must be one of "live", "locked"'],
      [
        { mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: ['ghost'] }] } },
        'mergeRules.rules[0].users: ghost is not a member of this organization',
      ],
    ] as const) {
      const r = await s.api('PATCH', `/v1/spaces/${sp.id}`, { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message).toBe(message);
    }
    expect((await s.api('GET', `/v1/spaces/${sp.id}`)).body).toEqual(sp);
  });
});

describe('spaces: duplicate', () => {
  it('copies the space with its content (new ids) right after the original, 201 with Location', async () => {
    const o = await newOrg('Duplicates');
    const c = (await s.api('POST', `/v1/orgs/${o}/collections`, { body: { title: 'C' } })).body;
    const first = await space(o, { title: 'First', parent: c.id, emoji: '📘', visibility: 'in-collection' });
    const last = await space(o, { title: 'Last', parent: c.id });
    const r = await s.api('POST', `/v1/spaces/${first.id}/duplicate`);
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(`${s.url}/v1/spaces/${r.body.id}`);
    expect(r.body).toMatchObject({ title: 'First (copy)', emoji: '📘', parent: c.id, visibility: 'in-collection', organization: o });
    expect(r.body.id).not.toBe(first.id);
    // Its content is a copy: a new revision row, in the copy's own shard.
    expect(r.body.revision).not.toBe(first.revision);
    expect(await s.ctx.store.read((tx) => tx.get(Revisions, r.body.revision))).toMatchObject({ space: r.body.id, parents: [] });
    expect(await s.ctx.store.read((tx) => tx.get(Revisions, first.revision))).toMatchObject({ space: first.id });
    const order = (await s.api('GET', `/v1/collections/${c.id}/spaces`)).body.items.map((x: any) => x.id);
    expect(order).toEqual([first.id, r.body.id, last.id]);
    const long = await space(o, { title: 'y'.repeat(50) });
    expect((await s.api('POST', `/v1/spaces/${long.id}/duplicate`)).body.title).toBe('y'.repeat(43) + ' (copy)');
    expect((await s.api('POST', '/v1/spaces/nope/duplicate')).status).toBe(404);
  });
});
