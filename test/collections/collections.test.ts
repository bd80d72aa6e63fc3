import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let org: string;
beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
});
afterAll(() => s.stop());

const newOrg = async (title: string) => (await s.api('POST', '/v1/orgs', { body: { title } })).body.id as string;
const collection = async (o: string, body: object = {}) => {
  const r = await s.api('POST', `/v1/orgs/${o}/collections`, { body });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
};
const space = async (o: string, body: object = {}) => {
  const r = await s.api('POST', `/v1/orgs/${o}/spaces`, { body });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
};

describe('collections: create, get, update', () => {
  it('creates with 201 and Location, with defaults, at the root or in a parent', async () => {
    const r = await s.api('POST', `/v1/orgs/${org}/collections`, { body: { title: '  Guides  ' } });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(`${s.url}/v1/collections/${r.body.id}`);
    expect(r.body).toMatchObject({
      object: 'collection',
      title: 'Guides',
      organization: org,
      defaultLevel: 'inherit',
      permissions: { view: true, admin: true, create: true, viewInviteLinks: true },
    });
    expect(r.body.parent).toBeUndefined();
    expect(r.body.urls).toEqual({ location: `${s.url}/v1/collections/${r.body.id}`, app: `${s.url}/o/${org}/c/${r.body.id}` });
    const child = await collection(org, { title: 'Child', parent: r.body.id });
    expect(child.parent).toBe(r.body.id);
    expect((await s.api('GET', `/v1/collections/${child.id}`)).body).toEqual(child);
    // A body is optional: the title defaults.
    expect((await s.api('POST', `/v1/orgs/${org}/collections`)).body.title).toBe('Untitled');
  });

  it('refuses bad titles, unknown parents and unknown fields, creating nothing', async () => {
    const o = await newOrg('Refusals');
    const bad = async (body: object, message: string) => {
      const r = await s.api('POST', `/v1/orgs/${o}/collections`, { body });
      expect(r.status).toBe(400);
      expect(r.body.error.message).toBe(message);
    };
    await bad({ title: 'x'.repeat(51) }, 'body.title: must NOT have more than 50 characters');
    await bad({ title: '   ' }, 'title: must be 1 to 50 characters');
    await bad({ parent: 'nope' }, 'parent: no collection nope in this organization');
    const elsewhere = await collection(org, { title: 'Elsewhere' });
    await bad({ parent: elsewhere.id }, `parent: no collection ${elsewhere.id} in this organization`);
    await bad({ title: 'Ok', color: 'red' }, 'body.color: is not an accepted field (accepted: title, parent)');
    expect((await s.api('GET', `/v1/orgs/${o}/collections`)).body).toEqual({ items: [], count: 0 });
    expect((await s.api('POST', '/v1/orgs/nope/collections', { body: {} })).status).toBe(404);
  });

  it('updates title, description and defaultLevel; refuses anything else and an empty body', async () => {
    const c = await collection(org, { title: 'Before' });
    const r = await s.api('PATCH', `/v1/collections/${c.id}`, { body: { title: 'After', description: 'All about it', defaultLevel: 'edit' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ title: 'After', description: 'All about it', defaultLevel: 'edit' });
    expect((await s.api('PATCH', `/v1/collections/${c.id}`, { body: { defaultLevel: null } })).body.defaultLevel).toBeNull();
    expect((await s.api('PATCH', `/v1/collections/${c.id}`, { body: { defaultLevel: 'inherit' } })).body.defaultLevel).toBe('inherit');
    const refused = [
      [{ description: 'd'.repeat(101) }, 'body.description: must NOT have more than 100 characters'],
      [{ parent: 'x' }, 'body.parent: is not an accepted field (accepted: title, description, defaultLevel)'],
      [{}, 'body: give at least one of title, description, defaultLevel'],
      [{ title: '' }, 'title: must be 1 to 50 characters'],
    ] as const;
    for (const [body, message] of refused) {
      const bad = await s.api('PATCH', `/v1/collections/${c.id}`, { body });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toBe(message);
    }
    expect((await s.api('GET', `/v1/collections/${c.id}`)).body).toMatchObject({ title: 'After', description: 'All about it', defaultLevel: 'inherit' });
    expect((await s.api('PATCH', '/v1/collections/nope', { body: { title: 'x' } })).status).toBe(404);
  });
});

describe('collections: listing', () => {
  it('lists every level depth first by default, only the top level with nested=false', async () => {
    const o = await newOrg('Listing');
    const a = await collection(o, { title: 'A' });
    const a1 = await collection(o, { title: 'A1', parent: a.id });
    await collection(o, { title: 'A1x', parent: a1.id });
    await collection(o, { title: 'B' });
    await collection(o, { title: 'A2', parent: a.id });
    const titles = async (q: string) => (await s.api('GET', `/v1/orgs/${o}/collections${q}`)).body.items.map((c: any) => c.title);
    expect(await titles('')).toEqual(['A', 'A1', 'A1x', 'A2', 'B']);
    expect(await titles('?nested=true')).toEqual(['A', 'A1', 'A1x', 'A2', 'B']);
    expect(await titles('?nested=false')).toEqual(['A', 'B']);
    const page = (await s.api('GET', `/v1/orgs/${o}/collections?limit=2`)).body;
    expect(page.count).toBe(5);
    expect(page.items).toHaveLength(2);
    const next = (await s.api('GET', `/v1/orgs/${o}/collections?limit=2&page=${page.next.page}`)).body;
    expect(next.items.map((c: any) => c.title)).toEqual(['A1x', 'A2']);
  });

  it('lists the spaces directly in a collection, in order', async () => {
    const o = await newOrg('Spaces in');
    const c = await collection(o, { title: 'C' });
    const inner = await collection(o, { title: 'Inner', parent: c.id });
    await space(o, { title: 'One', parent: c.id });
    await space(o, { title: 'Deep', parent: inner.id });
    await space(o, { title: 'Two', parent: c.id });
    await space(o, { title: 'Root' });
    const r = await s.api('GET', `/v1/collections/${c.id}/spaces`);
    expect(r.body.items.map((x: any) => x.title)).toEqual(['One', 'Two']);
    expect(r.body.count).toBe(2);
    expect((await s.api('GET', '/v1/collections/nope/spaces')).status).toBe(404);
  });
});

describe('collections: delete', () => {
  it('answers 205 when deleted and 204 when nothing was there', async () => {
    const c = await collection(org, { title: 'Short-lived' });
    expect((await s.api('DELETE', `/v1/collections/${c.id}`)).status).toBe(205);
    expect((await s.api('GET', `/v1/collections/${c.id}`)).status).toBe(404);
    expect((await s.api('DELETE', `/v1/collections/${c.id}`)).status).toBe(204);
    expect((await s.api('DELETE', '/v1/collections/never')).status).toBe(204);
  });

  it('deletes the collections inside and deletes (restorably) the spaces inside, which restore to the root', async () => {
    const o = await newOrg('Delete tree');
    const c = await collection(o, { title: 'Doomed' });
    const inner = await collection(o, { title: 'Inner', parent: c.id });
    const a = await space(o, { title: 'A', parent: c.id, visibility: 'in-collection' });
    const b = await space(o, { title: 'B', parent: inner.id });
    const keep = await space(o, { title: 'Keep' });
    expect((await s.api('DELETE', `/v1/collections/${c.id}`)).status).toBe(205);
    expect((await s.api('GET', `/v1/collections/${inner.id}`)).status).toBe(404);
    expect((await s.api('GET', `/v1/spaces/${a.id}`)).status).toBe(404);
    expect((await s.api('GET', `/v1/orgs/${o}/spaces`)).body.items.map((x: any) => x.id)).toEqual([keep.id]);
    expect((await s.api('GET', `/v1/orgs/${o}/collections`)).body.count).toBe(0);
    // Nothing is orphaned: each space comes back, at the root since its collection is gone.
    const ra = await s.api('POST', `/v1/spaces/${a.id}/restore`);
    expect(ra.status).toBe(200);
    expect(ra.body.parent).toBeUndefined();
    expect(ra.body.visibility).toBe('private'); // in-collection needs a collection
    const rb = await s.api('POST', `/v1/spaces/${b.id}/restore`);
    expect(rb.body.parent).toBeUndefined();
    expect((await s.api('GET', `/v1/orgs/${o}/spaces`)).body.items.map((x: any) => x.id)).toEqual([keep.id, a.id, b.id]);
  });
});
