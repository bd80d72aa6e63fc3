import { processingIdle } from '../../src/openapi/processor.js';
import { searchIndexerIdle } from '../../src/search/indexer.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';

// The fields @gitbook/api 0.202.0 requires, each with its real meaning (docs/manual/contract.md#the-newest-spec-is-part-of-the-contract),
// through HTTP; s.api checks every answer against both specs as well.

let s: TestServer;
let org: string;
const o = () => `/v1/orgs/${org}`;
beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
});
afterAll(() => s?.stop());

async function call(method: string, path: string, body?: unknown, status = 200, token?: string) {
  const r = await s.api(method, path, { ...(body === undefined ? {} : { body }), ...(token ? { token } : {}) });
  expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBe(status);
  return r.body;
}

/** A space with merged pages (title -> markdown, description). */
async function spaceWith(title: string, pages: { title: string; markdown: string; description?: string }[]) {
  const space = await call('POST', `${o()}/spaces`, { title }, 201);
  const sp = `/v1/spaces/${space.id}`;
  const cr = await call('POST', `${sp}/change-requests`, { subject: 'Pages' }, 201);
  await call('POST', `${sp}/change-requests/${cr.id}/content?compat=false`, {
    changes: pages.map((p) => ({
      operation: 'insert_page',
      title: p.title,
      ...(p.description ? { description: p.description } : {}),
      document: { markdown: p.markdown },
    })),
  });
  await call('POST', `${sp}/change-requests/${cr.id}/merge`);
  return space.id as string;
}

describe('sites: permissions of the caller, appliedType, defaultLevel, urls.preview', () => {
  it('computes permissions from the caller role; preview is the app page, then the published address', async () => {
    const spaceId = await spaceWith('Perm space', [{ title: 'Home', markdown: 'Hello.' }]);
    const site = await call('POST', `${o()}/sites`, { title: 'Perm site', spaces: [spaceId] }, 201);
    expect(site).toMatchObject({ appliedType: site.type, defaultLevel: 'inherit' });
    expect(site.permissions).toEqual({
      view: true,
      access: true,
      edit: true,
      create: true,
      admin: true,
      installIntegration: true,
      viewAdaptiveSchema: true,
      editAdaptiveSchema: true,
    });
    const reader = await addUser(s.ctx, org, 'read');
    const editor = await addUser(s.ctx, org, 'edit');
    const asReader = await call('GET', `${o()}/sites/${site.id}`, undefined, 200, reader.token);
    expect(asReader.permissions).toEqual({
      view: true,
      access: true,
      edit: false,
      create: false,
      admin: false,
      installIntegration: false,
      viewAdaptiveSchema: true,
      editAdaptiveSchema: false,
    });
    // An editor may edit the content of the site's space (its level is inherited from the role).
    expect((await call('GET', `${o()}/sites/${site.id}`, undefined, 200, editor.token)).permissions).toMatchObject({
      view: true,
      edit: true,
      create: false,
      admin: false,
    });
    // Closed to editors, the space no longer gives them `edit` on the site.
    await call('PATCH', `/v1/spaces/${spaceId}`, { defaultLevel: 'read' });
    expect((await call('GET', `${o()}/sites/${site.id}`, undefined, 200, editor.token)).permissions.edit).toBe(false);
    expect((await call('GET', `${o()}/sites`, undefined, 200, reader.token)).items.find((x: any) => x.id === site.id).permissions.admin).toBe(false);

    expect(site.urls.preview).toBe(site.urls.app);
    // The app page answers: its sign-in form for a browser without a session (members see the
    // site there once signed in); the unpublished site's own address is a 404.
    const app = await fetch(site.urls.preview, { redirect: 'manual' });
    expect([200, 401]).toContain(app.status);
    expect(await app.text()).toContain('<form');
    const published = await call('POST', `${o()}/sites/${site.id}/publish`);
    expect(published.urls.preview).toBe(published.urls.published);
    const page = await fetch(published.urls.preview);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Hello.');
  });
});

describe('site structure: draft is what the published site does not serve', () => {
  it('is draft until published; a hidden site space, a section or a group with nothing live stays draft', async () => {
    const a = await spaceWith('Draft A', [{ title: 'A', markdown: 'a' }]);
    const b = await spaceWith('Draft B', [{ title: 'B', markdown: 'b' }]);
    const c = await spaceWith('Draft C', [{ title: 'C', markdown: 'c' }]);
    const site = await call('POST', `${o()}/sites`, { title: 'Draft site' }, 201);
    const base = `${o()}/sites/${site.id}`;
    const shown = await call('POST', `${base}/sections`, { spaceId: a, title: 'Shown' }, 201);
    const quiet = await call('POST', `${base}/sections`, { spaceId: c, title: 'Quiet' }, 201);
    const extra = await call('POST', `${base}/site-spaces`, { spaceId: b, sectionId: shown.id }, 201);
    const group = await call('POST', `${base}/section-groups`, { title: 'Group' }, 201);
    await call('POST', `${base}/section-groups/${group.id}/sections`, { sectionId: quiet.id }, 201);
    const structure = async () => (await call('GET', `${base}/structure`)).structure as any[];
    const drafts = (items: any[]): Record<string, boolean> =>
      Object.assign({}, ...items.map((i) => ({ [i.title]: i.draft, ...drafts(i.siteSpaces ?? i.children ?? []) })));

    // Not published: everything is a draft.
    expect(Object.values(drafts(await structure())).every((d) => d === true)).toBe(true);
    await call('POST', `${base}/publish`);
    expect(drafts(await structure())).toEqual({ Shown: false, Group: false, Quiet: false, 'Draft A': false, 'Draft B': false, 'Draft C': false });

    // A hidden site space is not served; its section still is (another site space is live).
    const hidden = await call('PATCH', `${base}/site-spaces/${extra.id}`, { hidden: true });
    expect(hidden.draft).toBe(true);
    // The quiet section's only space deleted: it, and the group around it, serve nothing.
    await call('DELETE', `/v1/spaces/${c}`, undefined, 205);
    const now = await structure();
    expect(now.find((x) => x.id === shown.id).draft).toBe(false);
    const g = now.find((x) => x.id === group.id);
    expect(g.draft).toBe(true);
    expect(g.children[0]).toMatchObject({ id: quiet.id, draft: true });
    // The published site agrees: only the shown section, without the hidden site space.
    const published = (await call('GET', `${base}/published`)).structure.structure;
    expect(published.map((x: any) => x.id)).toEqual([shown.id]);
    expect(published[0].siteSpaces.map((x: any) => x.id)).not.toContain(extra.id);
  });
});

describe('customization: socialAccounts, styling.codeTheme, pageActions.items', () => {
  let base: string;
  beforeAll(async () => {
    const spaceId = await spaceWith('Custom space', [{ title: 'Home', markdown: 'x' }]);
    base = `${o()}/sites/${(await call('POST', `${o()}/sites`, { title: 'Custom site', spaces: [spaceId] }, 201)).id}`;
  });

  it('has the defaults: no social accounts, the code themes the site highlights with, the page actions as a list and as booleans', async () => {
    const c = await call('GET', `${base}/customization`);
    expect(c.socialAccounts).toEqual([]);
    expect(c.styling.codeTheme).toEqual({ default: { light: 'github-light', dark: 'github-dark' }, openapi: { light: 'github-light', dark: 'github-dark' } });
    expect(c.pageActions).toEqual({ externalAI: true, markdown: true, mcp: true, items: ['markdown', 'external-ai', 'mcp'] });
  });

  it('stores them; the list and the booleans agree whichever a client sends', async () => {
    const current = await call('GET', `${base}/customization`);
    // A 0.202.0 client: the list, in its order, a code theme and social accounts.
    const put = await call('PUT', `${base}/customization`, {
      ...current,
      socialAccounts: [{ platform: 'github', handle: 'gitbook', display: { footer: true, header: false } }],
      styling: { ...current.styling, codeTheme: { default: { light: 'one-light', dark: 'nord' }, openapi: { light: 'github-light', dark: 'github-dark' } } },
      pageActions: { ...current.pageActions, items: ['mcp', 'markdown'] },
    });
    expect(put.pageActions).toEqual({ externalAI: false, markdown: true, mcp: true, items: ['mcp', 'markdown'] });
    expect(put.styling.codeTheme.default).toEqual({ light: 'one-light', dark: 'nord' });
    expect(put.socialAccounts).toEqual([{ platform: 'github', handle: 'gitbook', display: { footer: true, header: false } }]);
    expect(await call('GET', `${base}/customization`)).toEqual(put);

    // A 0.146.0 client changes a boolean and sends the list back as it got it: the boolean counts.
    const off = await call('PUT', `${base}/customization`, { ...put, pageActions: { ...put.pageActions, markdown: false } });
    expect(off.pageActions).toEqual({ externalAI: false, markdown: false, mcp: true, items: ['mcp'] });
    const { items: _, ...booleans } = off.pageActions;
    const on = await call('PUT', `${base}/customization`, { ...off, pageActions: { ...booleans, externalAI: true } });
    expect(on.pageActions).toEqual({ externalAI: true, markdown: false, mcp: true, items: ['mcp', 'external-ai'] });

    // A 0.202.0 body without 0.146.0's pdf and git: accepted, those keep their defaults.
    const { pdf: _p, git: _g, ...latestOnly } = on;
    const put2 = await call('PUT', `${base}/customization`, latestOnly);
    expect(put2.pdf).toEqual({ enabled: true });
    expect(put2.git).toEqual({ showEditLink: false });
    // The fields only 0.202.0 has are checked by 0.202.0's schema.
    for (const wrong of [
      { socialAccounts: 'github' },
      { styling: { ...put2.styling, codeTheme: { default: { light: 'nord', dark: 'nord' } } } },
      { pageActions: { items: ['fax'] } },
    ]) {
      const r = await s.api('PUT', `${base}/customization`, { body: { ...put2, ...wrong } });
      expect(r.status, JSON.stringify(wrong)).toBe(400);
    }
    // A typo is still refused at any depth.
    const bad = await s.api('PUT', `${base}/customization`, {
      body: { ...put2, styling: { ...put2.styling, codeTheme: { ...put2.styling.codeTheme, defualt: {} } } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/styling\.codeTheme\.defualt/);
  });

  it('overrides the code theme of a site space (0.202.0), null going back to the site', async () => {
    const ss = (await call('GET', `${base}/site-spaces`)).items[0].id;
    const site = await call('GET', `${base}/customization`);
    const over = await call('PATCH', `${base}/site-spaces/${ss}/customization`, {
      styling: { codeTheme: { default: { light: 'min-light', dark: 'min-dark' } } },
    });
    expect(over.styling.codeTheme).toEqual({ default: { light: 'min-light', dark: 'min-dark' }, openapi: site.styling.codeTheme.openapi });
    expect(over.pageActions).toEqual(site.pageActions); // not overridable per site space (either spec)
    const profile = await call('POST', `${base}/publish`).then(() => call('GET', `${base}/published`));
    expect(profile.customizations.siteSpaces[ss].styling.codeTheme).toEqual(over.styling.codeTheme);
    const back = await call('PATCH', `${base}/site-spaces/${ss}/customization`, { styling: { codeTheme: { default: null } } });
    expect(back.styling.codeTheme).toEqual(site.styling.codeTheme);
  });
});

describe('members: sites they can reach', () => {
  it('counts the organization sites for a member with a role, none for a guest', async () => {
    const sites = (await call('GET', `${o()}/sites?limit=1000`)).items.length;
    const reader = await addUser(s.ctx, org, 'read');
    const guest = await addUser(s.ctx, org, null);
    expect((await call('GET', `${o()}/members/${reader.userId}`)).sites).toBe(sites);
    expect((await call('GET', `${o()}/members/${guest.userId}`)).sites).toBe(0);
  });
});

describe('OpenAPI: lastProcessedErrorCount and content urls', () => {
  it('counts every error of the last processing, beyond the 50 kept; 0 after a success', async () => {
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < 70; i++) paths[`/p${i}`] = { get: { responses: { '200': { description: 5 } } }, parameters: [{ name: 'a' }] };
    await call('PUT', `${o()}/openapi/many-errors`, { source: { text: JSON.stringify({ openapi: '3.0.0', info: { title: 'x', version: '1' }, paths }) } }, 201);
    await processingIdle(s.ctx);
    const failed = await call('GET', `${o()}/openapi/many-errors`);
    expect(failed.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(failed.lastProcessedErrors.length).toBeLessThanOrEqual(51);
    expect(failed.lastProcessedErrorCount).toBe(71);
    const good = JSON.stringify({ openapi: '3.0.0', info: { title: 'x', version: '1' }, paths: {} });
    await call('PUT', `${o()}/openapi/many-errors`, { source: { text: good } });
    await processingIdle(s.ctx);
    expect((await call('GET', `${o()}/openapi/many-errors`)).lastProcessedErrorCount).toBe(0);

    const content = await call('GET', `${o()}/openapi/many-errors/versions/latest/content`);
    expect(content.urls).toEqual({ source: content.url, public: null });
    await call('PATCH', `${o()}/openapi/many-errors`, { visibility: 'public' });
    expect((await call('GET', `${o()}/openapi/many-errors/versions/latest/content`)).urls).toEqual({ source: content.url, public: content.url });
  });
});

describe('search: score and rank from the engine, description, space results', () => {
  it('ranks pages by score (kept across pages of results) and carries their description', async () => {
    const spaceId = await spaceWith('Searchable', [
      { title: 'Refunds', description: 'How refunds work', markdown: 'Refunds are paid in five days. Refunds refunds.' },
      { title: 'Billing', markdown: 'Invoices. A refund may apply.' },
    ]);
    // bm25 weighs a word by the whole organization's index: the background indexer catching up with
    // the spaces of earlier tests between two searches would move the scores compared below.
    await searchIndexerIdle(s.ctx);
    const all = await call('GET', `/v1/spaces/${spaceId}/search?query=refund`);
    expect(all.items.map((p: any) => [p.title, p.rank])).toEqual([
      ['Refunds', 1],
      ['Billing', 2],
    ]);
    expect(all.items[0].score).toBeGreaterThan(all.items[1].score);
    expect(all.items[1].score).toBeGreaterThan(0);
    expect(all.items[0].description).toBe('How refunds work');
    expect(all.items[1].description).toBe('');
    for (const p of all.items) expect(p.sections[0].score).toBe(p.score);
    const first = await call('GET', `/v1/spaces/${spaceId}/search?query=refund&limit=1`);
    const second = await call('GET', `/v1/spaces/${spaceId}/search?query=refund&limit=1&page=${encodeURIComponent(first.next.page)}`);
    expect(second.items.map((p: any) => [p.title, p.rank, p.score])).toEqual([['Billing', 2, all.items[1].score]]);

    // The description is indexed with the page: a new one shows at the next search.
    const sp = `/v1/spaces/${spaceId}`;
    const cr = await call('POST', `${sp}/change-requests`, { subject: 'Describe' }, 201);
    await call('POST', `${sp}/change-requests/${cr.id}/content?compat=false`, {
      changes: [{ operation: 'update_page', page: all.items[1].id, description: 'Invoices and credits' }],
    });
    await call('POST', `${sp}/change-requests/${cr.id}/merge`);
    expect((await call('GET', `${sp}/search?query=refund`)).items.map((p: any) => p.description)).toEqual(['How refunds work', 'Invoices and credits']);

    const org = await call('GET', `${o()}/search?query=refund`);
    const hit = org.items.find((x: any) => x.id === spaceId);
    expect(hit).toMatchObject({ type: 'space', score: hit.pages[0].score });
    expect(hit.pages.map((p: any) => [p.title, p.description])).toEqual([
      ['Refunds', 'How refunds work'],
      ['Billing', 'Invoices and credits'],
    ]);
    const ranks = org.items.flatMap((x: any) => x.pages.map((p: any) => p.rank)).sort((a: number, b: number) => a - b);
    expect(ranks).toEqual(ranks.map((_: number, i: number) => i + 1));
  });
});

describe('content: tags and page layout', () => {
  it('has no tags (no tags concept) and every layout flag', async () => {
    const spaceId = await spaceWith('Tags', [{ title: 'Home', markdown: 'x' }]);
    const rev = await call('GET', `/v1/spaces/${spaceId}/content`);
    expect(rev.tags).toEqual([]);
    const page = rev.pages[0];
    expect(page.tags).toEqual([]);
    expect(page.layout).toMatchObject({ coverMask: 'none', tags: false, actions: true, anchors: true });
  });
});

describe('integrations: the retired gitsync category', () => {
  it('refuses it (0.202.0 dropped it) and gives publicContentEndpoint', async () => {
    const manifest = {
      organization: org,
      title: 'Git tool',
      description: 'Git',
      script: 'export default {}',
      visibility: 'private',
      scopes: ['space:content:read'],
    };
    const r = await s.api('POST', '/v1/integrations/git-tool', { body: { ...manifest, categories: ['gitsync'] } });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/gitsync/);
    const ok = await call('POST', '/v1/integrations/git-tool', { ...manifest, categories: ['content'] });
    expect(ok.urls.publicContentEndpoint).toBe(ok.urls.publicEndpoint);
  });
});
