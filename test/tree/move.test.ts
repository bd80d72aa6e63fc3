import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.stop());

const newOrg = async (title: string) => (await s.api('POST', '/v1/orgs', { body: { title } })).body.id as string;
const make = async (o: string, kind: 'spaces' | 'collections', title: string, parent?: string) =>
  (await s.api('POST', `/v1/orgs/${o}/${kind}`, { body: { title, ...(parent ? { parent } : {}) } })).body;
/** The whole tree as text: titles depth first, children indented. */
async function tree(o: string): Promise<string[]> {
  const cols = (await s.api('GET', `/v1/orgs/${o}/collections`)).body.items;
  const spaces = (await s.api('GET', `/v1/orgs/${o}/spaces`)).body.items;
  const out: string[] = [];
  const visit = async (parent: string | undefined, depth: number) => {
    const kids = parent ? (await s.api('GET', `/v1/collections/${parent}/spaces`)).body.items : spaces.filter((x: any) => !x.parent);
    // Within a parent: its collections, then its spaces, each kind in its order.
    for (const item of [...cols.filter((c: any) => c.parent === parent), ...kids]) {
      out.push('  '.repeat(depth) + item.title);
      if (item.object === 'collection') await visit(item.id, depth + 1);
    }
  };
  await visit(undefined, 0);
  return out;
}
const sp = (space: string) => ({ type: 'space', space });
const col = (collection: string) => ({ type: 'collection', collection });

describe('moving spaces', () => {
  it('reorders among siblings with before/after and moves into a collection or to the root', async () => {
    const o = await newOrg('Move spaces');
    const a = await make(o, 'spaces', 'A');
    const b = await make(o, 'spaces', 'B');
    const c = await make(o, 'spaces', 'C');
    const g = await make(o, 'collections', 'G');
    const titles = async () => (await s.api('GET', `/v1/orgs/${o}/spaces`)).body.items.map((x: any) => x.title);
    expect(await titles()).toEqual(['A', 'B', 'C']);
    let r = await s.api('POST', `/v1/spaces/${c.id}/move`, { body: { position: { before: sp(a.id) } } });
    expect(r.status).toBe(200);
    expect(await titles()).toEqual(['C', 'A', 'B']);
    r = await s.api('POST', `/v1/spaces/${c.id}/move`, { body: { position: { after: sp(a.id) } } });
    expect(await titles()).toEqual(['A', 'C', 'B']);
    // Collections come first in a parent, then spaces.
    expect(await tree(o)).toEqual(['G', 'A', 'C', 'B']);
    r = await s.api('POST', `/v1/spaces/${a.id}/move`, { body: { parent: g.id } });
    expect(r.body.parent).toBe(g.id);
    expect(await tree(o)).toEqual(['G', '  A', 'C', 'B']);
    // Without parent, the position's parent is the target.
    r = await s.api('POST', `/v1/spaces/${c.id}/move`, { body: { position: { after: sp(a.id) } } });
    expect(r.body.parent).toBe(g.id);
    expect(await tree(o)).toEqual(['G', '  A', '  C', 'B']);
    r = await s.api('POST', `/v1/spaces/${a.id}/move`, { body: { parent: null, position: { before: sp(b.id) } } });
    expect(r.body.parent).toBeUndefined();
    expect(await tree(o)).toEqual(['G', '  C', 'A', 'B']);
    // With no position: at the end of the parent.
    await s.api('POST', `/v1/spaces/${a.id}/move`, { body: { parent: null } });
    expect(await tree(o)).toEqual(['G', '  C', 'B', 'A']);
  });

  it('refuses invalid positions and parents (400), unknown spaces (404) and moves that change nothing (409)', async () => {
    const o = await newOrg('Move refusals');
    const a = await make(o, 'spaces', 'A');
    const b = await make(o, 'spaces', 'B');
    const g = await make(o, 'collections', 'G');
    const other = await make(await newOrg('Elsewhere'), 'spaces', 'X');
    const before = await tree(o);
    expect(before).toEqual(['G', 'A', 'B']);
    const expectError = async (id: string, body: object, status: number, message: string) => {
      const r = await s.api('POST', `/v1/spaces/${id}/move`, { body });
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.body.error.message).toBe(message);
    };
    await expectError(a.id, { position: { before: sp('nope') } }, 400, 'position.before: no space nope in this organization');
    await expectError(a.id, { position: { after: sp(other.id) } }, 400, `position.after: no space ${other.id} in this organization`);
    await expectError(a.id, { position: { after: col('nope') } }, 400, 'position.after: no collection nope in this organization');
    await expectError(
      a.id,
      { position: { after: col(g.id) } },
      400,
      'position.after: a space is placed before or after another space (collections and spaces are ordered separately)',
    );
    await expectError(a.id, { position: { before: sp(a.id) } }, 400, 'position.before: cannot place a space relative to itself');
    await expectError(a.id, { position: { before: sp(b.id), after: sp(b.id) } }, 400, 'position: give before or after, not both');
    await expectError(a.id, { parent: 'nope' }, 400, 'parent: no collection nope in this organization');
    await expectError(a.id, { parent: g.id, position: { before: sp(b.id) } }, 400, `position.before: space ${b.id} is not in collection ${g.id}`);
    await expectError(a.id, { position: { before: { type: 'space' } } }, 400, 'body.position.before.space: is required');
    await expectError(a.id, {}, 400, 'body: must NOT have fewer than 1 properties');
    await expectError('nope', { parent: null }, 404, 'space nope not found');
    await expectError(a.id, { position: { before: sp(b.id) } }, 409, `nothing to change: space ${a.id} is already at that place in the organization's root`);
    await expectError(b.id, { position: { after: sp(a.id) } }, 409, `nothing to change: space ${b.id} is already at that place in the organization's root`);
    const last = await s.api('POST', `/v1/collections/${g.id}/move`, { body: { parent: null } });
    expect(last.status).toBe(409); // already the last child of the root
    expect(await tree(o)).toEqual(before); // every refusal changed nothing
    expect((await s.api('POST', `/v1/spaces/${a.id}/move`, { body: { position: { after: sp(b.id) } } })).status).toBe(200);
    expect(await tree(o)).toEqual(['G', 'B', 'A']);
  });
});

describe('moving collections', () => {
  it('moves a collection with its content and keeps the order among siblings', async () => {
    const o = await newOrg('Move collections');
    const x = await make(o, 'collections', 'X');
    const y = await make(o, 'collections', 'Y');
    await make(o, 'spaces', 'in X', x.id);
    await make(o, 'spaces', 'root');
    let r = await s.api('POST', `/v1/collections/${x.id}/move`, { body: { parent: y.id } });
    expect(r.status).toBe(200);
    expect(r.body.parent).toBe(y.id);
    expect(await tree(o)).toEqual(['Y', '  X', '    in X', 'root']);
    r = await s.api('POST', `/v1/collections/${x.id}/move`, { body: { parent: null, position: { before: col(y.id) } } });
    expect(r.body.parent).toBeUndefined();
    expect(await tree(o)).toEqual(['X', '  in X', 'Y', 'root']);
    r = await s.api('POST', `/v1/collections/${x.id}/move`, { body: { position: { after: col(y.id) } } });
    expect(await tree(o)).toEqual(['Y', 'X', '  in X', 'root']);
  });

  it('refuses moving a collection into itself or its descendants (400), and no-op moves (409)', async () => {
    const o = await newOrg('Cycles');
    const top = await make(o, 'collections', 'Top');
    const mid = await make(o, 'collections', 'Mid', top.id);
    const low = await make(o, 'collections', 'Low', mid.id);
    for (const parent of [top.id, mid.id, low.id]) {
      const r = await s.api('POST', `/v1/collections/${top.id}/move`, { body: { parent } });
      expect(r.status).toBe(400);
      expect(r.body.error.message).toBe('parent: a collection cannot move into itself or one of its own collections');
    }
    const self = await s.api('POST', `/v1/collections/${mid.id}/move`, { body: { position: { before: col(mid.id) } } });
    expect(self.body.error.message).toBe('position.before: cannot place a collection relative to itself');
    const same = await s.api('POST', `/v1/collections/${low.id}/move`, { body: { parent: mid.id } });
    expect(same.status).toBe(409);
    expect((await s.api('POST', '/v1/collections/nope/move', { body: { parent: null } })).status).toBe(404);
    expect(await tree(o)).toEqual(['Top', '  Mid', '    Low']);
  });
});
