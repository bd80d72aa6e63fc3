import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

// Moving site items between containers through the API (docs/manual/docs-as-code.md#moving-items-between-containers):
// a section by PATCH siteSectionGroupId, a group by PATCH parentSectionGroupId, a site space by
// sorting it next to a site space of another section. The same item (id) each time; bad moves
// are refused and change nothing.

let s: TestServer;
let org: string;
beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
});
afterAll(() => s.stop());

const ok = async (method: string, path: string, body?: unknown, status = 200) => {
  const r = await s.api(method, `/v1/orgs/${org}${path}`, body === undefined ? {} : { body });
  expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBe(status);
  return r.body;
};
const fails = async (method: string, path: string, body: unknown, status: number, message: RegExp) => {
  const r = await s.api(method, `/v1/orgs/${org}${path}`, { body });
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.error.message).toMatch(message);
};
const space = async (title: string) => ok('POST', '/spaces', { title }, 201);

describe('site items move between containers, keeping their ids', () => {
  it('sections into, between and out of groups; groups into groups; refusals change nothing', async () => {
    const [a, b] = [await space('M-A'), await space('M-B')];
    const x = await ok('POST', '/sites', { title: 'Moves' }, 201);
    const sa = await ok('POST', `/sites/${x.id}/sections`, { spaceId: a.id }, 201);
    const sb = await ok('POST', `/sites/${x.id}/sections`, { spaceId: b.id }, 201);
    const g = await ok('POST', `/sites/${x.id}/section-groups`, { title: 'G' }, 201);
    const h = await ok('POST', `/sites/${x.id}/section-groups`, { title: 'H' }, 201);
    const shape = async () =>
      (await ok('GET', `/sites/${x.id}/structure`)).structure.map((n: any) => [
        n.id,
        (n.children ?? []).map((c: any) => [c.id, (c.children ?? []).map((d: any) => d.id)]),
      ]);

    await ok('PATCH', `/sites/${x.id}/sections/${sa.id}`, { siteSectionGroupId: g.id });
    expect(await shape()).toEqual([
      [sb.id, []],
      [g.id, [[sa.id, []]]],
      [h.id, []],
    ]);
    await ok('PATCH', `/sites/${x.id}/sections/${sa.id}`, { siteSectionGroupId: h.id });
    expect(await shape()).toEqual([
      [sb.id, []],
      [g.id, []],
      [h.id, [[sa.id, []]]],
    ]);
    await ok('PATCH', `/sites/${x.id}/section-groups/${h.id}`, { parentSectionGroupId: g.id });
    expect(await shape()).toEqual([
      [sb.id, []],
      [g.id, [[h.id, [sa.id]]]],
    ]);
    await ok('PATCH', `/sites/${x.id}/sections/${sa.id}`, { siteSectionGroupId: null });
    await ok('PATCH', `/sites/${x.id}/section-groups/${h.id}`, { parentSectionGroupId: null });
    expect(await shape()).toEqual([
      [sb.id, []],
      [g.id, []],
      [sa.id, []],
      [h.id, []],
    ]);

    const before = await shape();
    await ok('PATCH', `/sites/${x.id}/section-groups/${h.id}`, { parentSectionGroupId: g.id });
    await fails('PATCH', `/sites/${x.id}/section-groups/${g.id}`, { parentSectionGroupId: h.id }, 400, /cannot move into itself or a group within it/);
    await fails('PATCH', `/sites/${x.id}/section-groups/${g.id}`, { parentSectionGroupId: g.id }, 400, /cannot move into itself/);
    await fails('PATCH', `/sites/${x.id}/sections/${sa.id}`, { siteSectionGroupId: 'nope' }, 400, /no section group nope/);
    await fails('PATCH', `/sites/${x.id}/sections/${sa.id}`, { siteSectionGroupId: 42 }, 400, /must be a section group id or null/);
    await ok('PATCH', `/sites/${x.id}/section-groups/${h.id}`, { parentSectionGroupId: null });
    expect(await shape()).toEqual(before);
  });

  it('a site space sorted next to one of another section moves there; its old default passes on; clashes are 409', async () => {
    const [a, b, c] = [await space('S-A'), await space('S-B'), await space('S-C')];
    const x = await ok('POST', '/sites', { title: 'Space moves' }, 201);
    const s1 = await ok('POST', `/sites/${x.id}/sections`, { spaceId: a.id, title: 'One' }, 201);
    const _s2 = await ok('POST', `/sites/${x.id}/sections`, { spaceId: c.id, title: 'Two' }, 201);
    const ssb = await ok('POST', `/sites/${x.id}/site-spaces`, { spaceId: b.id, sectionId: s1.id }, 201);
    const [ssa] = (await ok('GET', `/sites/${x.id}/structure`)).structure[0].siteSpaces;
    const [ssc] = (await ok('GET', `/sites/${x.id}/structure`)).structure[1].siteSpaces;
    expect(ssa.default).toBe(true);
    const spaces = async () => (await ok('GET', `/sites/${x.id}/structure`)).structure.map((n: any) => n.siteSpaces.map((ss: any) => [ss.id, ss.default]));

    await ok('PATCH', `/sites/${x.id}/structure/sort`, { item: { type: 'site-space', id: ssa.id }, position: { after: { type: 'site-space', id: ssc.id } } });
    expect(await spaces()).toEqual([
      [[ssb.id, true]],
      [
        [ssc.id, true],
        [ssa.id, false],
      ],
    ]);
    // The deprecated move does the same: back before the section's first.
    await ok('POST', `/sites/${x.id}/site-spaces/${ssa.id}/move`, { position: { before: { type: 'site-space', siteSpace: ssb.id } } });
    expect(await spaces()).toEqual([
      [
        [ssa.id, false],
        [ssb.id, true],
      ],
      [[ssc.id, true]],
    ]);
    // The same space already there, or its path taken there: 409, nothing moved.
    const other = await ok('POST', '/sites', { title: 'Clash' }, 201);
    const t1 = await ok('POST', `/sites/${other.id}/sections`, { spaceId: a.id, title: 'T1' }, 201);
    const t2 = await ok('POST', `/sites/${other.id}/sections`, { spaceId: b.id, title: 'T2' }, 201);
    await ok('POST', `/sites/${other.id}/site-spaces`, { spaceId: a.id, sectionId: t2.id }, 201);
    const [ta] = (await ok('GET', `/sites/${other.id}/structure`)).structure[0].siteSpaces;
    const [, ta2] = (await ok('GET', `/sites/${other.id}/structure`)).structure[1].siteSpaces;
    await fails(
      'PATCH',
      `/sites/${other.id}/structure/sort`,
      { item: { type: 'site-space', id: ta.id }, position: { after: { type: 'site-space', id: ta2.id } } },
      409,
      /already in the section/,
    );
    expect((await ok('GET', `/sites/${other.id}/structure`)).structure[0].siteSpaces.map((ss: any) => ss.id)).toEqual([ta.id]);
    expect(t1.id).toBeTruthy();
    await fails(
      'PATCH',
      `/sites/${x.id}/structure/sort`,
      { item: { type: 'site-space', id: ssa.id }, position: { after: { type: 'site-space', id: 'nope' } } },
      400,
      /nope is not among/,
    );
  });
});
