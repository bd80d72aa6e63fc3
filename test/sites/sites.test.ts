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

const ok = async (method: string, path: string, body?: unknown, status = 200) => {
  const r = await s.api(method, `/v1/orgs/${org}${path}`, body === undefined ? {} : { body });
  expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBe(status);
  return r.body;
};
const fails = async (method: string, path: string, body: unknown, status: number, message: string | RegExp, token?: string) => {
  const r = await s.api(method, `/v1/orgs/${org}${path}`, { ...(body === undefined ? {} : { body }), ...(token ? { token } : {}) });
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  if (typeof message === 'string') expect(r.body.error.message).toBe(message);
  else expect(r.body.error.message).toMatch(message);
};
const space = async (title: string) => ok('POST', '/spaces', { title }, 201);
const site = async (body: object = {}) => ok('POST', '/sites', body, 201);

describe('sites: create, list, get, update, delete', () => {
  it('creates with defaults and initial spaces as site spaces; Location; siteSpaces count', async () => {
    const a = await space('Getting Started');
    const b = await space('API');
    const r = await s.api('POST', `/v1/orgs/${org}/sites`, { body: { title: 'Public Docs', spaces: [a.id, b.id] } });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(`${s.url}/v1/orgs/${org}/sites/${r.body.id}`);
    expect(r.body).toMatchObject({
      object: 'site',
      type: 'basic',
      title: 'Public Docs',
      visibility: 'public',
      published: false,
      siteSpaces: 2,
      basename: 'public-docs',
      features: [],
      agentsContext: 'included',
    });
    expect(r.body.urls.published).toBeUndefined();
    const list = await ok('GET', `/sites/${r.body.id}/site-spaces`);
    expect(list.items.map((x: any) => [x.space.id, x.path, x.default])).toEqual([
      [a.id, 'getting-started', true],
      [b.id, 'api', false],
    ]);
    expect(await ok('GET', `/sites/${r.body.id}`)).toEqual(r.body);
    // A second site with the same title gets its own basename.
    expect((await site({ title: 'Public Docs' })).basename).toBe('public-docs-2');
  });

  it('refuses bad input, creating nothing', async () => {
    const before = (await ok('GET', '/sites')).count;
    await fails('POST', '/sites', { title: ' x ' }, 400, 'title: must be 2 to 128 characters');
    await fails('POST', '/sites', { spaces: ['nope'] }, 400, 'spaces[0]: no space nope in this organization');
    await fails('POST', '/sites', { title: 'Ok', color: 'red' }, 400, /^body\.color: is not an accepted field/);
    await fails('POST', '/sites', { visibility: 'secret' }, 400, /visibility/);
    expect((await ok('GET', '/sites')).count).toBe(before);
  });

  it('lists with filters: space, title, published, type', async () => {
    const sp = await space('Filtered');
    const x = await site({ title: 'Filter Alpha', spaces: [sp.id] });
    const y = await site({ title: 'Filter Beta', type: 'premium' });
    const ids = async (q: string) => (await ok('GET', `/sites?${q}`)).items.map((i: any) => i.id);
    expect(await ids(`space=${sp.id}`)).toEqual([x.id]);
    expect(await ids('title=filter')).toEqual([x.id, y.id]);
    expect(await ids('title=FILTER%20b')).toEqual([y.id]);
    expect(await ids('type=premium')).toEqual([y.id]);
    await ok('POST', `/sites/${x.id}/publish`);
    expect(await ids('published=true&title=filter')).toEqual([x.id]);
    expect(await ids('published=false&title=filter')).toEqual([y.id]);
  });

  it('updates the fields of PATCH; basename unique; proxy set and removed; empty body refused', async () => {
    const a = await site({ title: 'Patch Me' });
    const b = await site({ title: 'Other One' });
    const r = await ok('PATCH', `/sites/${a.id}`, {
      title: 'Patched',
      visibility: 'unlisted',
      basename: 'guides',
      adaptiveContent: { enabled: true },
      agentsContext: 'excluded',
      proxy: 'acme.com/docs',
    });
    expect(r).toMatchObject({
      title: 'Patched',
      visibility: 'unlisted',
      basename: 'guides',
      adaptiveContent: { enabled: true },
      agentsContext: 'excluded',
      proxy: { origin: 'acme.com/docs' },
    });
    expect((await ok('PATCH', `/sites/${a.id}`, { proxy: null })).proxy).toBeUndefined();
    await fails('PATCH', `/sites/${b.id}`, { basename: 'guides' }, 409, 'basename: guides is already the basename of another site of this organization');
    await fails('PATCH', `/sites/${b.id}`, { basename: 'a/b' }, 400, /^basename: must be/);
    await fails('PATCH', `/sites/${b.id}`, { proxy: 'not a host' }, 400, /proxy/);
    await fails('PATCH', `/sites/${b.id}`, {}, 400, /^body: give at least one of/);
    await fails('PATCH', `/sites/${b.id}`, { hostname: 'x.com' }, 400, /^body\.hostname: is not an accepted field/);
    expect((await ok('GET', `/sites/${b.id}`)).basename).toBe('other-one');
  });

  it('deletes a site with its structure, not its spaces: 205 then 204; clears default content', async () => {
    const sp = await space('Kept');
    const x = await site({ title: 'Doomed' });
    const sec = await ok('POST', `/sites/${x.id}/sections`, { spaceId: sp.id }, 201);
    await ok('POST', `/sites/${x.id}/section-groups`, { title: 'G', sections: [sec.id] }, 201);
    await ok('PATCH', '', { defaultContent: { type: 'site', site: x.id } });
    expect((await ok('GET', '')).defaultContent).toEqual({ type: 'site', site: x.id });
    expect((await s.api('DELETE', `/v1/orgs/${org}/sites/${x.id}`)).status).toBe(205);
    expect((await s.api('DELETE', `/v1/orgs/${org}/sites/${x.id}`)).status).toBe(204);
    await fails('GET', `/sites/${x.id}`, undefined, 404, `site ${x.id} not found`);
    await fails('GET', `/sites/${x.id}/sections`, undefined, 404, `site ${x.id} not found`);
    expect((await ok('GET', '')).defaultContent).toBeUndefined();
    expect((await s.api('GET', `/v1/spaces/${sp.id}`)).status).toBe(200);
    await fails(
      'PATCH',
      '',
      { defaultContent: { type: 'site', site: x.id } },
      400,
      `defaultContent: invalid default content: no site ${x.id} in this organization`,
    );
  });
});

describe('permissions', () => {
  it('non-members get 404, readers read but cannot change (403 naming the role)', async () => {
    const x = await site({ title: 'Guarded' });
    const reader = await addUser(s.ctx, org, 'read');
    const stranger = await addUser(s.ctx);
    const r = await s.api('GET', `/v1/orgs/${org}/sites/${x.id}`, { token: reader.token });
    expect(r.status).toBe(200);
    await fails(
      'PATCH',
      `/sites/${x.id}`,
      { title: 'Nope' },
      403,
      `updating site ${x.id} needs the admin role in this organization or on site ${x.id} (you have read)`,
      reader.token,
    );
    await fails('POST', '/sites', {}, 403, 'creating a site needs the admin role in this organization (you have read)', reader.token);
    await fails('POST', `/sites/${x.id}/share-links`, { name: 'x' }, 403, /needs the admin role/, reader.token);
    await fails('GET', `/sites/${x.id}`, undefined, 404, `organization ${org} not found`, stranger.token);
    await fails('GET', '/sites', undefined, 404, `organization ${org} not found`, stranger.token);
    expect((await ok('GET', `/sites/${x.id}`)).title).toBe('Guarded');
  });

  it('management views show a member only the spaces they can see', async () => {
    const open = await space('Open to readers');
    const closed = await space('Closed to readers');
    expect((await s.api('PATCH', `/v1/spaces/${closed.id}`, { body: { defaultLevel: null } })).status).toBe(200);
    const x = await site({ title: 'Mixed', spaces: [open.id, closed.id] });
    const reader = await addUser(s.ctx, org, 'read');
    const seen = await s.api('GET', `/v1/orgs/${org}/sites/${x.id}/site-spaces`, { token: reader.token });
    expect(seen.body.items.map((i: any) => i.space.id)).toEqual([open.id]);
    expect((await ok('GET', `/sites/${x.id}/site-spaces`)).items.map((i: any) => i.space.id)).toEqual([open.id, closed.id]);
  });
});

describe('publishing and the published profile', () => {
  it('publish/unpublish: 412 without content, 409 when nothing changes, 404 profile when unpublished', async () => {
    const x = await site({ title: 'Pub' });
    await fails('POST', `/sites/${x.id}/publish`, undefined, 412, `site ${x.id} has no content to publish: add a space to it first`);
    const sp = await space('Pub Space');
    await ok('POST', `/sites/${x.id}/site-spaces`, { spaceId: sp.id }, 201);
    await fails('GET', `/sites/${x.id}/published`, undefined, 404, `no published site ${x.id}`);
    const pub = await ok('POST', `/sites/${x.id}/publish`);
    expect(pub.published).toBe(true);
    expect(pub.urls.published).toBe(`${s.url}/sites/${org}/pub`);
    await fails('POST', `/sites/${x.id}/publish`, undefined, 409, `nothing to change: site ${x.id} is already published`);
    const prof = await ok('GET', `/sites/${x.id}/published`);
    expect(prof).toMatchObject({ object: 'published-content-site', site: { id: x.id, published: true }, structure: { type: 'siteSpaces' }, scripts: [] });
    expect(prof.structure.structure[0].urls.published).toBe(`${s.url}/sites/${org}/pub`);
    expect(prof.customizations.site.styling.theme).toBe('clean');
    expect((await ok('POST', `/sites/${x.id}/unpublish`)).published).toBe(false);
    await fails('GET', `/sites/${x.id}/published`, undefined, 404, `no published site ${x.id}`);
    await fails('POST', `/sites/${x.id}/unpublish`, undefined, 409, `nothing to change: site ${x.id} is already unpublished`);
  });

  it('share-link sites resolve only with the key of an active share link', async () => {
    const sp = await space('Secret');
    const x = await site({ title: 'Shared', visibility: 'share-link', spaces: [sp.id] });
    await ok('POST', `/sites/${x.id}/publish`);
    const link = await ok('POST', `/sites/${x.id}/share-links`, { name: 'Partners' }, 201);
    expect(link).toMatchObject({ object: 'share-link', name: 'Partners', active: true });
    const key = new URL(link.urls.published).searchParams.get('share')!;
    expect(key).toHaveLength(40);
    await fails('GET', `/sites/${x.id}/published`, undefined, 404, /shared by link only/);
    await fails('GET', `/sites/${x.id}/published?shareKey=wrong`, undefined, 404, /no active share link/);
    const prof = await ok('GET', `/sites/${x.id}/published?shareKey=${key}`);
    expect(prof.site.urls.published).toContain(`?share=${key}`);
    expect((await ok('GET', `/sites/${x.id}/share-links`)).items.map((l: any) => l.id)).toEqual([link.id]);
    expect(await ok('PATCH', `/sites/${x.id}/share-links/${link.id}`, { active: false, name: 'Old partners' })).toMatchObject({
      active: false,
      name: 'Old partners',
    });
    await fails('GET', `/sites/${x.id}/published?shareKey=${key}`, undefined, 404, /no active share link/);
    expect((await s.api('DELETE', `/v1/orgs/${org}/sites/${x.id}/share-links/${link.id}`)).status).toBe(205);
    expect((await s.api('DELETE', `/v1/orgs/${org}/sites/${x.id}/share-links/${link.id}`)).status).toBe(204);
    // visitor-auth: served and marked by its visibility.
    await ok('PATCH', `/sites/${x.id}`, { visibility: 'visitor-auth' });
    expect((await ok('GET', `/sites/${x.id}/published`)).site.visibility).toBe('visitor-auth');
  });

  it('hidden site spaces and deleted spaces leave the published structure; deleting a space blocks nothing', async () => {
    const a = await space('Shown');
    const b = await space('Hidden');
    const c = await space('Deleted later');
    const x = await site({ title: 'Hiding', spaces: [a.id, b.id, c.id] });
    const [sa, sb] = (await ok('GET', `/sites/${x.id}/site-spaces`)).items;
    await fails('PATCH', `/sites/${x.id}/site-spaces/${sa.id}`, { hidden: true }, 400, /is the default one and cannot be hidden/);
    expect((await ok('PATCH', `/sites/${x.id}/site-spaces/${sb.id}`, { hidden: true })).hidden).toBe(true);
    await ok('POST', `/sites/${x.id}/publish`);
    expect((await s.api('DELETE', `/v1/spaces/${c.id}`)).status).toBe(205);
    const prof = await ok('GET', `/sites/${x.id}/published`);
    expect(prof.structure.structure.map((i: any) => i.space.id)).toEqual([a.id]);
    // The admin views still show all three (the deleted one can be restored for 7 days).
    expect((await ok('GET', `/sites/${x.id}/site-spaces`)).count).toBe(3);
  });
});

describe('structure: sections, groups, site spaces, defaults, paths, conditions', () => {
  it('builds sections from spaces, wraps a flat site, keeps one default, unique paths', async () => {
    const a = await space('Flat');
    const b = await space('Guides');
    const c = await space('Reference');
    const x = await site({ title: 'Structured', spaces: [a.id] });
    const sec = await s.api('POST', `/v1/orgs/${org}/sites/${x.id}/sections`, { body: { spaceId: b.id } });
    expect(sec.status).toBe(201);
    expect(sec.headers.get('location')).toBe(`${s.url}/v1/orgs/${org}/sites/${x.id}/sections/${sec.body.id}`);
    expect(sec.body).toMatchObject({ title: 'Guides', path: 'guides', default: false, siteSpaces: [{ space: { id: b.id }, default: true }] });
    const st = await ok('GET', `/sites/${x.id}/structure`);
    expect(st.type).toBe('sections');
    expect(st.structure.map((i: any) => [i.title, i.default, i.siteSpaces.map((ss: any) => ss.space.id)])).toEqual([
      ['Structured', true, [a.id]],
      ['Guides', false, [b.id]],
    ]);
    // A site space without sectionId goes to the default section.
    const ss = await ok('POST', `/sites/${x.id}/site-spaces`, { spaceId: c.id }, 201);
    expect(ss.section).toBe(st.structure[0].id);
    await fails('POST', `/sites/${x.id}/site-spaces`, { spaceId: c.id }, 409, `space ${c.id} is already on site ${x.id} in section ${st.structure[0].id}`);
    await fails('POST', `/sites/${x.id}/site-spaces`, { spaceId: c.id, sectionId: 'nope' }, 400, `sectionId: no section nope in site ${x.id}`);
    // Default section: one at a time.
    await ok('PATCH', `/sites/${x.id}`, { defaultSiteSection: sec.body.id });
    const sections = (await ok('GET', `/sites/${x.id}/sections`)).items;
    expect(sections.map((i: any) => i.default)).toEqual([false, true]);
    await fails('PATCH', `/sites/${x.id}`, { defaultSiteSection: 'nope' }, 400, `defaultSiteSection: no section nope in site ${x.id}`);
    // Default site space: in the default section only (site PATCH), in its own section (section PATCH).
    await fails(
      'PATCH',
      `/sites/${x.id}`,
      { defaultSiteSpace: ss.id },
      400,
      `defaultSiteSpace: site space ${ss.id} is not in the default section ${sec.body.id}`,
    );
    const upd = await ok('PATCH', `/sites/${x.id}/sections/${st.structure[0].id}`, { defaultSiteSpace: ss.id });
    expect(upd.siteSpaces.map((i: any) => [i.id, i.default])).toEqual([
      [st.structure[0].siteSpaces[0].id, false],
      [ss.id, true],
    ]);
    await fails(
      'PATCH',
      `/sites/${x.id}/sections/${sec.body.id}`,
      { defaultSiteSpace: ss.id },
      400,
      `defaultSiteSpace: site space ${ss.id} is not in section ${sec.body.id}`,
    );
    // Paths: unique among sections of the site, and among site spaces of a section.
    await fails(
      'PATCH',
      `/sites/${x.id}/sections/${sec.body.id}`,
      { path: 'structured' },
      409,
      'path: structured is already the path of another section of this site',
    );
    await fails('PATCH', `/sites/${x.id}/sections/${sec.body.id}`, { path: 'a/b' }, 400, /^path: must be 1 to 100 letters/);
    await fails('PATCH', `/sites/${x.id}/site-spaces/${ss.id}`, { path: 'flat' }, 409, /^path: flat is already the path of another site space/);
    expect((await ok('PATCH', `/sites/${x.id}/site-spaces/${ss.id}`, { path: 'ref' })).path).toBe('ref');
    await fails('PATCH', `/sites/${x.id}/sections/${sec.body.id}`, { title: '   x   ' }, 400, 'title: must be 2 to 128 characters');
    // Deleting the default section: the next one takes over; its site spaces go, the spaces stay.
    expect((await s.api('DELETE', `/v1/orgs/${org}/sites/${x.id}/sections/${sec.body.id}`)).status).toBe(205);
    expect((await ok('GET', `/sites/${x.id}/sections`)).items.map((i: any) => i.default)).toEqual([true]);
    expect((await ok('GET', `/sites/${x.id}`)).siteSpaces).toBe(2);
    expect((await s.api('DELETE', `/v1/orgs/${org}/sites/${x.id}/sections/${sec.body.id}`)).status).toBe(204);
  });

  it('a group added to a flat site wraps its site spaces in a default section; empty groups are not published', async () => {
    const a = await space('Wrapped');
    const x = await site({ title: 'Flat then grouped', spaces: [a.id] });
    const g = await ok('POST', `/sites/${x.id}/section-groups`, { title: 'Empty group' }, 201);
    const st = await ok('GET', `/sites/${x.id}/structure`);
    expect(st.type).toBe('sections');
    expect(st.structure.map((n: any) => [n.object, n.title])).toEqual([
      ['site-section', 'Flat then grouped'],
      ['site-section-group', 'Empty group'],
    ]);
    expect(st.structure[0].siteSpaces.map((ss: any) => ss.space.id)).toEqual([a.id]);
    await ok('POST', `/sites/${x.id}/publish`);
    expect((await ok('GET', `/sites/${x.id}/published`)).structure.structure.map((n: any) => n.id)).toEqual([st.structure[0].id]);
    expect(g.children).toEqual([]);
  });

  it('conditions: accepts the documented grammar, refuses the rest with 400; null removes', async () => {
    const a = await space('Cond');
    const x = await site({ title: 'Conditional', spaces: [a.id] });
    const [ss] = (await ok('GET', `/sites/${x.id}/site-spaces`)).items;
    const good = [
      'visitor.claims.isBeta === true',
      '!(visitor.claims.plan == "pro") || visitor.claims.unsigned.country != "FR"',
      "visitor.claims.roles.includes('admin') && visitor.claims['seats'] >= 10",
    ];
    for (const condition of good) expect((await ok('PATCH', `/sites/${x.id}/site-spaces/${ss.id}`, { condition })).condition).toBe(condition);
    await fails('PATCH', `/sites/${x.id}/site-spaces/${ss.id}`, { condition: 'process.exit()' }, 400, /^condition: unsupported/);
    await fails('PATCH', `/sites/${x.id}/site-spaces/${ss.id}`, { condition: 'visitor.claims.a = 1' }, 400, /^condition: /);
    await fails('PATCH', `/sites/${x.id}/site-spaces/${ss.id}`, { condition: 'visitor.claims.a +' }, 400, /^condition: not a valid expression/);
    await fails('PATCH', `/sites/${x.id}/site-spaces/${ss.id}`, { condition: 'visitor.claims.a + 1 > 2' }, 400, /^condition: unsupported operator '\+'/);
    await fails('PATCH', `/sites/${x.id}/site-spaces/${ss.id}`, { condition: 'x'.repeat(1025) }, 400, /condition/);
    expect((await ok('GET', `/sites/${x.id}/site-spaces`)).items[0].condition).toBe(good[2]);
    expect((await ok('PATCH', `/sites/${x.id}/site-spaces/${ss.id}`, { path: 'p' })).condition).toBe(good[2]);
    expect((await ok('PATCH', `/sites/${x.id}/site-spaces/${ss.id}`, { condition: null })).condition).toBeUndefined();
    const sec = await ok('POST', `/sites/${x.id}/sections`, { spaceId: a.id, title: 'Beta' }, 201);
    expect((await ok('PATCH', `/sites/${x.id}/sections/${sec.id}`, { condition: 'visitor.claims.beta' })).condition).toBe('visitor.claims.beta');
    await fails('PATCH', `/sites/${x.id}/sections/${sec.id}`, { condition: 'window.beta' }, 400, /^condition: unsupported reference/);
  });

  it('section groups nest, take sections, give them back; deleting a group keeps its sections', async () => {
    const [a, b, c] = [await space('G-A'), await space('G-B'), await space('G-C')];
    const x = await site({ title: 'Grouped' });
    const sa = await ok('POST', `/sites/${x.id}/sections`, { spaceId: a.id }, 201);
    const sb = await ok('POST', `/sites/${x.id}/sections`, { spaceId: b.id }, 201);
    const sc = await ok('POST', `/sites/${x.id}/sections`, { spaceId: c.id }, 201);
    const g = await ok('POST', `/sites/${x.id}/section-groups`, { title: 'Products', sections: [sb.id] }, 201);
    const inner = await ok('POST', `/sites/${x.id}/section-groups`, { title: 'Legacy', parent: g.id }, 201);
    expect(inner.sectionGroup).toBe(g.id);
    const added = await ok('POST', `/sites/${x.id}/section-groups/${inner.id}/sections`, { sectionId: sc.id }, 201);
    expect(added.sections.map((s: any) => s.id)).toEqual([sc.id]);
    await fails('POST', `/sites/${x.id}/section-groups/${inner.id}/sections`, { sectionId: sc.id }, 409, /already in group/);
    await fails('POST', `/sites/${x.id}/section-groups`, { title: 'Bad', parent: 'nope' }, 400, `parent: no section group nope in site ${x.id}`);
    await fails('POST', `/sites/${x.id}/section-groups`, { title: 'Bad', sections: ['nope'] }, 400, `sections: no section nope in site ${x.id}`);
    const st = (await ok('GET', `/sites/${x.id}/structure`)).structure;
    expect(st.map((n: any) => n.id)).toEqual([sa.id, g.id]);
    expect(st[1].children.map((n: any) => n.id)).toEqual([sb.id, inner.id]);
    expect(st[1].children[1].children.map((n: any) => n.id)).toEqual([sc.id]);
    expect((await ok('GET', `/sites/${x.id}/section-groups`)).items.map((i: any) => i.id)).toEqual([g.id, inner.id]);
    expect((await ok('PATCH', `/sites/${x.id}/section-groups/${g.id}`, { title: 'All products', icon: 'box' })).title).toBe('All products');
    // Remove from group: to the end of the group's parent.
    expect((await s.api('DELETE', `/v1/orgs/${org}/sites/${x.id}/section-groups/${inner.id}/sections/${sc.id}`)).status).toBe(205);
    expect((await s.api('DELETE', `/v1/orgs/${org}/sites/${x.id}/section-groups/${inner.id}/sections/${sc.id}`)).status).toBe(204);
    expect((await ok('GET', `/sites/${x.id}/structure`)).structure[1].children.map((n: any) => n.id)).toEqual([sb.id, inner.id, sc.id]);
    // Delete the outer group: its children take its place.
    expect((await s.api('DELETE', `/v1/orgs/${org}/sites/${x.id}/section-groups/${g.id}`)).status).toBe(205);
    expect((await ok('GET', `/sites/${x.id}/structure`)).structure.map((n: any) => n.id)).toEqual([sa.id, sb.id, inner.id, sc.id]);
    expect((await ok('GET', `/sites/${x.id}/sections`)).count).toBe(3);
  });

  it('orders siblings: sortSiteStructure and the deprecated moves; 400 bad positions, 404 no item', async () => {
    const [a, b, c] = [await space('O-A'), await space('O-B'), await space('O-C')];
    const x = await site({ title: 'Ordered', spaces: [a.id, b.id, c.id] });
    const [ra, rb, rc] = (await ok('GET', `/sites/${x.id}/site-spaces`)).items;
    const order = async () => (await ok('GET', `/sites/${x.id}/structure`)).structure.map((i: any) => i.id);
    const moved = await ok('PATCH', `/sites/${x.id}/structure/sort`, {
      item: { type: 'site-space', id: rc.id },
      position: { before: { type: 'site-space', id: ra.id } },
    });
    expect(moved.id).toBe(rc.id);
    expect(await order()).toEqual([rc.id, ra.id, rb.id]);
    await ok('PATCH', `/sites/${x.id}/structure/sort`, { item: { type: 'site-space', id: rc.id }, position: {} });
    expect(await order()).toEqual([ra.id, rb.id, rc.id]);
    // The spec marks the body optional; without one there is nothing to move: 400, not a crash
    // (found by typing the handler's input: docs/manual/contract.md#what-the-types-found).
    await fails('PATCH', `/sites/${x.id}/structure/sort`, undefined, 400, 'body: is required (item and position)');
    expect(await order()).toEqual([ra.id, rb.id, rc.id]);
    await ok('POST', `/sites/${x.id}/site-spaces/${ra.id}/move`, { position: { after: { type: 'site-space', siteSpace: rb.id } } });
    expect(await order()).toEqual([rb.id, ra.id, rc.id]);
    await fails(
      'PATCH',
      `/sites/${x.id}/structure/sort`,
      { item: { type: 'site-space', id: 'nope' }, position: {} },
      404,
      `site-space nope not found in site ${x.id}`,
    );
    await fails(
      'PATCH',
      `/sites/${x.id}/structure/sort`,
      { item: { type: 'site-space', id: ra.id }, position: { before: { type: 'site-space', id: 'nope' } } },
      400,
      /^position: nope is not among/,
    );
    await fails(
      'PATCH',
      `/sites/${x.id}/structure/sort`,
      { item: { type: 'site-space', id: ra.id }, position: { before: { type: 'site-space', id: ra.id } } },
      400,
      /relative to itself/,
    );
    await fails(
      'PATCH',
      `/sites/${x.id}/structure/sort`,
      { item: { type: 'site-space', id: ra.id }, position: { before: { type: 'site-space', id: rb.id }, after: { type: 'site-space', id: rc.id } } },
      400,
      'position: give before or after, not both',
    );
    // Sections and groups are siblings of one another.
    const s1 = await ok('POST', `/sites/${x.id}/sections`, { spaceId: a.id, title: 'One' }, 201);
    const g = await ok('POST', `/sites/${x.id}/section-groups`, { title: 'Group' }, 201);
    await ok('POST', `/sites/${x.id}/sections/${s1.id}/move`, {
      position: { after: { type: 'site-section', siteSection: (await ok('GET', `/sites/${x.id}/sections`)).items[0].id } },
    });
    await ok('POST', `/sites/${x.id}/section-groups/${g.id}/move`, { position: { before: { type: 'site-section', id: s1.id } } });
    const sec = (await ok('GET', `/sites/${x.id}/structure`)).structure.map((i: any) => i.title);
    expect(sec).toEqual(['Ordered', 'Group', 'One']);
  });
});

describe('more refusals, each changing nothing', () => {
  it('site spaces, sections, share links and proxies', async () => {
    const a = await space('R-A');
    const b = await space('R-B');
    const gone = await space('R-Gone');
    expect((await s.api('DELETE', `/v1/spaces/${gone.id}`)).status).toBe(205);
    const other = (await s.api('POST', '/v1/orgs', { body: { title: 'Elsewhere' } })).body.id;
    const foreign = (await s.api('POST', `/v1/orgs/${other}/spaces`, { body: { title: 'Foreign' } })).body;
    const x = await site({ title: 'Refusals', spaces: [a.id, b.id] });
    const [sa, sb] = (await ok('GET', `/sites/${x.id}/site-spaces`)).items;
    await fails('POST', `/sites/${x.id}/site-spaces`, { spaceId: gone.id }, 400, `spaceId: no space ${gone.id} in this organization`);
    await fails('POST', `/sites/${x.id}/site-spaces`, { spaceId: foreign.id }, 400, `spaceId: no space ${foreign.id} in this organization`);
    await fails('PATCH', `/sites/${x.id}/site-spaces/${sb.id}`, { spaceId: a.id }, 409, `spaceId: space ${a.id} is already on site ${x.id} in the same place`);
    await fails('PATCH', `/sites/${x.id}/site-spaces/${sb.id}`, { title: 'x' }, 400, /^body\.title: is not an accepted field/);
    await fails('PATCH', `/sites/${x.id}/site-spaces/${sb.id}`, { hidden: 'yes' }, 400, 'hidden: must be a boolean');
    await fails('PATCH', `/sites/${x.id}/site-spaces/nope`, { path: 'p' }, 404, `site space nope not found in site ${x.id}`);
    expect((await s.api('DELETE', `/v1/orgs/${org}/sites/${x.id}/site-spaces/nope`)).status).toBe(204);
    expect((await ok('GET', `/sites/${x.id}/site-spaces`)).items).toEqual([sa, sb]);
    // A site of groups only has no section to put a space in.
    const y = await site({ title: 'Groups only' });
    await ok('POST', `/sites/${y.id}/section-groups`, { title: 'G' }, 201);
    await fails(
      'POST',
      `/sites/${y.id}/site-spaces`,
      { spaceId: a.id },
      400,
      `sectionId: site ${y.id} has section groups but no section yet: add a section first`,
    );
    // Share links: a blank name, an unknown link.
    await fails('POST', `/sites/${x.id}/share-links`, { name: '   ' }, 400, 'name: must be 1 to 50 characters');
    await fails('PATCH', `/sites/${x.id}/share-links/nope`, { active: false }, 404, `share link nope not found in site ${x.id}`);
    expect((await ok('GET', `/sites/${x.id}/share-links`)).count).toBe(0);
    // A proxy belongs to one site.
    await ok('PATCH', `/sites/${x.id}`, { proxy: 'refusals.com/docs' });
    await fails('PATCH', `/sites/${y.id}`, { proxy: 'refusals.com/docs' }, 409, 'proxy: refusals.com/docs is already the proxy of another site');
    // Sections: an unknown one, a description too long.
    await fails('PATCH', `/sites/${x.id}/sections/nope`, { title: 'Ok' }, 404, `section nope not found in site ${x.id}`);
    await fails('POST', `/sites/${x.id}/sections`, { spaceId: a.id, title: '   y   ' }, 400, 'title: must be 2 to 128 characters');
    expect((await ok('GET', `/sites/${x.id}/structure`)).type).toBe('siteSpaces');
  });
});

describe('adaptive content and customization', () => {
  const schema = {
    type: 'object',
    properties: {
      isBeta: { type: 'boolean', description: 'In the beta program' },
      plan: { type: 'string', enum: ['free', 'pro'], description: 'Plan' },
      unsigned: {
        type: 'object',
        description: 'Unsigned claims of the site visitor.',
        properties: { lang: { type: 'string', description: 'Language' } },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  };

  it('stores a draft-07 schema, returns it, derives conditions that the grammar accepts', async () => {
    const x = await site({ title: 'Adaptive' });
    await fails('GET', `/sites/${x.id}/adaptive-schema`, undefined, 404, `site ${x.id} has no adaptive schema`);
    expect(await ok('GET', `/sites/${x.id}/adaptive-schema/template-conditions`)).toEqual({ items: [] });
    const put = await ok('PUT', `/sites/${x.id}/adaptive-schema`, { jsonSchema: schema });
    expect(put).toMatchObject({ object: 'site-adaptive-schema', jsonSchema: schema });
    expect(await ok('GET', `/sites/${x.id}/adaptive-schema`)).toEqual(put);
    const { items } = await ok('GET', `/sites/${x.id}/adaptive-schema/template-conditions`);
    expect(items.map((i: any) => i.condition)).toEqual([
      'visitor.claims.isBeta === true',
      '!visitor.claims.isBeta',
      'visitor.claims.plan === "free"',
      'visitor.claims.plan === "pro"',
      'visitor.claims.unsigned.lang === "value"',
    ]);
    const sp = await space('Adaptive space');
    const ss = await ok('POST', `/sites/${x.id}/site-spaces`, { spaceId: sp.id }, 201);
    for (const { condition } of items) await ok('PATCH', `/sites/${x.id}/site-spaces/${ss.id}`, { condition });
  });

  it('refuses schemas of the wrong shape or that are not valid draft-07', async () => {
    const x = await site({ title: 'Bad schema' });
    await fails(
      'PUT',
      `/sites/${x.id}/adaptive-schema`,
      { jsonSchema: { type: 'object', properties: { a: { type: 'date', description: 'x' } }, additionalProperties: false } },
      400,
      /jsonSchema/,
    );
    await fails(
      'PUT',
      `/sites/${x.id}/adaptive-schema`,
      { jsonSchema: { type: 'object', properties: { a: { type: 'string', description: 'x', enum: [] } }, additionalProperties: false } },
      400,
      /^jsonSchema: not a valid JSON Schema draft-07/,
    );
    await fails(
      'PUT',
      `/sites/${x.id}/adaptive-schema`,
      { jsonSchema: { type: 'object', properties: { 'a-b': { type: 'boolean', description: 'x' } }, additionalProperties: false } },
      400,
      /^jsonSchema.properties.a-b: a claim name must be an identifier/,
    );
    await fails('GET', `/sites/${x.id}/adaptive-schema`, undefined, 404, /no adaptive schema/);
  });

  it('customization: defaults, validated PUT, site-space overrides merged into the published profile', async () => {
    const sp = await space('Custom');
    const x = await site({ title: 'Custom', spaces: [sp.id] });
    const base = await ok('GET', `/sites/${x.id}/customization`);
    const next = {
      ...base,
      styling: { ...base.styling, primaryColor: { light: '#1f6feb', dark: '#58a6ff' } },
      announcement: { enabled: true, message: 'New docs!', style: 'info' },
    };
    expect(await ok('PUT', `/sites/${x.id}/customization`, next)).toEqual(next);
    await fails('PUT', `/sites/${x.id}/customization`, { ...next, styling: { ...next.styling, corners: 'wavy' } }, 400, /corners/);
    await fails(
      'PUT',
      `/sites/${x.id}/customization`,
      { ...next, styling: { ...next.styling, primaryColor: { light: 'blue', dark: '#000' } } },
      400,
      /primaryColor/,
    );
    await fails('PUT', `/sites/${x.id}/customization`, { ...next, announcement: { enabled: true, message: 'x', style: 'info' } }, 400, /message/);
    expect(await ok('GET', `/sites/${x.id}/customization`)).toEqual(next);
    const [ss] = (await ok('GET', `/sites/${x.id}/site-spaces`)).items;
    const over = await ok('PATCH', `/sites/${x.id}/site-spaces/${ss.id}/customization`, { title: 'Variant', styling: { theme: 'bold' } });
    expect(over).toMatchObject({ title: 'Variant', styling: { theme: 'bold', primaryColor: { light: '#1f6feb' } } });
    await ok('POST', `/sites/${x.id}/publish`);
    const prof = await ok('GET', `/sites/${x.id}/published`);
    expect(prof.customizations.site).toEqual(next);
    expect(prof.customizations.siteSpaces[ss.id]).toEqual(over);
    expect((await ok('PATCH', `/sites/${x.id}/site-spaces/${ss.id}/customization`, { styling: { theme: null } })).styling.theme).toBe('clean');
    expect((await s.api('DELETE', `/v1/orgs/${org}/sites/${x.id}/site-spaces/${ss.id}/customization`)).status).toBe(205);
    expect((await s.api('DELETE', `/v1/orgs/${org}/sites/${x.id}/site-spaces/${ss.id}/customization`)).status).toBe(204);
    expect((await ok('GET', `/sites/${x.id}/published`)).customizations.siteSpaces).toEqual({});
  });
});

describe('organizations and spaces meet sites', () => {
  it('createOrganization withDefaultSite creates a default site; openapiUrl is refused', async () => {
    const r = await s.api('POST', '/v1/orgs?withDefaultSite=true', { body: { title: 'With Site' } });
    expect(r.status).toBe(201);
    const sites = (await s.api('GET', `/v1/orgs/${r.body.id}/sites`)).body.items;
    expect(sites.map((x: any) => x.title)).toEqual(['With Site']);
    expect(r.body.defaultContent).toEqual({ type: 'site', site: sites[0].id });
    const bad = await s.api('POST', '/v1/orgs?withDefaultSite=true&openapiUrl=https://example.com/spec.json', { body: { title: 'Nope Org' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^openapiUrl: /);
  });

  it('a space on a site of its organization cannot be transferred (412) until removed from it', async () => {
    const other = (await s.api('POST', '/v1/orgs', { body: { title: 'Target' } })).body.id;
    const sp = await space('Moving');
    const x = await site({ title: 'Holder', spaces: [sp.id] });
    await ok('POST', `/sites/${x.id}/publish`);
    const r = await s.api('POST', `/v1/spaces/${sp.id}/transfer`, { body: { organization: other } });
    expect(r.status).toBe(412);
    expect(r.body.error.message).toContain(`space ${sp.id} is on published site ${x.id} of its organization`);
    const [ss] = (await ok('GET', `/sites/${x.id}/site-spaces`)).items;
    expect((await s.api('DELETE', `/v1/orgs/${org}/sites/${x.id}/site-spaces/${ss.id}`)).status).toBe(205);
    expect((await s.api('POST', `/v1/spaces/${sp.id}/transfer`, { body: { organization: other } })).status).toBe(200);
  });
});

describe('a purged space leaves its sites', () => {
  it('after retention, its site spaces are removed and the next one becomes the default', async () => {
    const { ManualClock } = await import('../../src/kernel/clock.js');
    const { purgeExpiredSpaces } = await import('../../src/space-purge.js');
    const { RETENTION_MS } = await import('../../src/spaces/retention.js');
    const clock = new ManualClock();
    const t = await startServer({ clock });
    try {
      const o = (await t.api('GET', '/v1/orgs')).body.items[0].id;
      const a = (await t.api('POST', `/v1/orgs/${o}/spaces`, { body: { title: 'Going' } })).body;
      const b = (await t.api('POST', `/v1/orgs/${o}/spaces`, { body: { title: 'Staying' } })).body;
      const x = (await t.api('POST', `/v1/orgs/${o}/sites`, { body: { title: 'Purge', spaces: [a.id, b.id] } })).body;
      expect((await t.api('DELETE', `/v1/spaces/${a.id}`)).status).toBe(205);
      expect((await t.api('GET', `/v1/orgs/${o}/sites/${x.id}`)).body.siteSpaces).toBe(2);
      clock.advance(RETENTION_MS);
      expect(await purgeExpiredSpaces(t.ctx)).toBe(1);
      const items = (await t.api('GET', `/v1/orgs/${o}/sites/${x.id}/site-spaces`)).body.items;
      expect(items.map((i: any) => [i.space.id, i.default])).toEqual([[b.id, true]]);
      expect((await t.api('GET', `/v1/orgs/${o}/sites/${x.id}`)).body.siteSpaces).toBe(1);
    } finally {
      await t.stop();
    }
  });
});
