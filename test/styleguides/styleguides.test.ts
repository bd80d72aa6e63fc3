import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../helpers/people.js';
import { StyleguideRuns } from '../../src/styleguides/tables.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { checkPage, parseRules } from '../../src/styleguides/rules.js';
import { STYLEGUIDE_TEMPLATES } from '../../src/styleguides/templates.js';

// Style guides (src/styleguides, docs/manual/styleguides.md): the rules read from a style guide's
// pages, a site's style guide made once (from a template), check runs over the site's spaces that
// keep their findings and fix terms in a draft change request; every answer checked against both specs.

describe('rules', () => {
  const rules = parseRules([STYLEGUIDE_TEMPLATES[0].markdown]);

  it('reads terms, the heading case and the sentence length from the template', () => {
    expect(rules.headings).toBe('sentence');
    expect(rules.sentenceWords).toBe(25);
    expect(rules.terms).toContainEqual({ avoid: 'login', use: 'sign in' });
    expect(rules.terms).toContainEqual({ avoid: 'log in', use: 'sign in' });
  });

  it('finds and fixes terms outside code, heading case, long sentences', () => {
    const long = `${'word '.repeat(30).trim()}.`;
    const md = ['## How To Login', '', 'Please Login to utilize the app. `login` stays.', '', '```', 'login', '```', '', long].join('\n');
    const r = checkPage(md, rules);
    expect(r.fixed).toBe(['## How To Sign in', '', 'Please Sign in to use the app. `login` stays.', '', '```', 'login', '```', '', long].join('\n'));
    expect(r.findings.map((f) => [f.rule, f.line])).toEqual([
      ['term', 1],
      ['heading', 1],
      ['term', 3],
      ['term', 3],
      ['sentence-length', 9],
    ]);
    expect(checkPage('## Getting started\n\nShort and clear.', rules)).toEqual({ findings: [] });
  });
});

let s: TestServer;
let org: string;
let space: string;
let site: string;
const base = () => `/v1/orgs/${org}/sites/${site}`;

beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Help' } })).body.id;
  const cr = (await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'Write' } })).body.id;
  const changes = [{ operation: 'insert_page', title: 'Access', document: { markdown: '## How To Login\n\nFirst login with your email.' } }];
  expect((await s.api('POST', `/v1/spaces/${space}/change-requests/${cr}/content?compat=false`, { body: { changes } })).status).toBeLessThan(300);
  expect((await s.api('POST', `/v1/spaces/${space}/change-requests/${cr}/merge`)).status).toBe(200);
  site = (await s.api('POST', `/v1/orgs/${org}/sites`, { body: { title: 'Help center' } })).body.id;
  await s.api('POST', `${base()}/site-spaces`, { body: { spaceId: space } });
}, 60_000);
afterAll(() => s?.stop());

describe('style guides', () => {
  it('lists the templates', async () => {
    const r = await s.api('GET', `/v1/orgs/${org}/styleguide-templates`);
    expect(r.status).toBe(200);
    expect(r.body.templates.map((t: any) => t.id)).toEqual(['plain-language', 'technical-reference']);
  });

  it('refuses a run before the site has a style guide (412), and an unknown template (400), changing nothing', async () => {
    expect((await s.api('POST', `${base()}/styleguide/runs`, { body: { spaces: [space] } })).status).toBe(412);
    const bad = await s.api('POST', `${base()}/styleguide`, { body: { template: 'nope' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/template: no style guide template nope/);
    expect((await s.api('GET', `/v1/orgs/${org}/styleguides`)).body.styleguides).toEqual([]);
  });

  it('makes the style guide once, from a template, and lists it with its site', async () => {
    const made = await s.api('POST', `${base()}/styleguide`, { body: { template: 'plain-language' } });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ object: 'space', type: 'styleguide' });
    const again = await s.api('POST', `${base()}/styleguide`);
    expect(again.body.id).toBe(made.body.id);
    expect((await s.api('GET', `${base()}`)).body.styleguide).toEqual({ kind: 'space', space: made.body.id });
    const list = (await s.api('GET', `/v1/orgs/${org}/styleguides`)).body.styleguides;
    expect(list).toHaveLength(1);
    expect(list[0].sites.map((x: any) => x.id)).toEqual([site]);
  });

  it('runs a check: findings kept, terms fixed in a draft change request, taken over by the next run', async () => {
    const r = await s.api('POST', `${base()}/styleguide/runs`, { body: { spaces: [space] } });
    expect(r.status).toBe(201);
    const { run, changeRequests } = r.body;
    expect(run).toMatchObject({ object: 'styleguide-run', spaces: [space], findingsTotal: 3 });
    expect(run.findings.map((f: any) => f.rule)).toEqual(['term', 'heading', 'term']);
    expect(changeRequests).toHaveLength(1);
    expect(changeRequests[0]).toMatchObject({ status: 'draft', styleguide: { site, run: run.id, changedPages: 1 } });
    const page = (await s.api('GET', `/v1/spaces/${space}/change-requests/${changeRequests[0].id}/content`)).body.pages[0];
    const md = (await s.api('GET', `/v1/spaces/${space}/change-requests/${changeRequests[0].id}/content/page/${page.id}?format=markdown`)).body;
    expect(md.markdown).toContain('First sign in with your email.');
    // The space itself is unchanged until the change request is merged.
    expect((await s.api('GET', `/v1/spaces/${space}/content/page/${page.id}?format=markdown`)).body.markdown).toContain('First login');
    const second = await s.api('POST', `${base()}/styleguide/runs`, { body: { spaces: [space] } });
    expect(second.body.changeRequests[0]).toMatchObject({ id: changeRequests[0].id, styleguide: { run: run.id, changedPages: 0 } });
    const runs = await s.api('GET', `${base()}/styleguide/runs`);
    expect(runs.body.count).toBe(2);
    expect(runs.body.items[0].id).toBe(second.body.run.id);
  });

  it('refuses the style guide itself, a space outside the site, a repeat (400), an unknown site (404), and below-role callers (403)', async () => {
    const sg = (await s.api('POST', `${base()}/styleguide`)).body.id;
    const before = (await s.api('GET', `${base()}/styleguide/runs`)).body.count;
    expect((await s.api('POST', `${base()}/styleguide/runs`, { body: { spaces: [sg] } })).body.error.message).toMatch(/is the style guide itself/);
    const other = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Other' } })).body.id;
    expect((await s.api('POST', `${base()}/styleguide/runs`, { body: { spaces: [other] } })).status).toBe(400);
    expect((await s.api('POST', `${base()}/styleguide/runs`, { body: { spaces: [space, space] } })).status).toBe(400);
    expect((await s.api('POST', `${base()}/styleguide/runs`, { body: { spaces: [] } })).status).toBe(400);
    expect((await s.api('POST', `/v1/orgs/${org}/sites/nope/styleguide/runs`, { body: { spaces: [space] } })).status).toBe(404);
    const reader = await addUser(s.ctx, org, 'read');
    expect((await s.api('POST', `${base()}/styleguide/runs`, { body: { spaces: [space] }, token: reader.token })).status).toBe(403);
    expect((await s.api('POST', `${base()}/styleguide`, { token: reader.token })).status).toBe(403);
    expect((await s.api('GET', `${base()}/styleguide/runs`)).body.count).toBe(before);
  });
});

describe('deleting the site', () => {
  it('removes its check runs in the same write; the style guide space stays', async () => {
    const runs = () => s.ctx.store.read((tx) => tx.find(StyleguideRuns, 'site', site).length);
    expect(await runs()).toBeGreaterThan(0);
    const sg = (await s.api('GET', base())).body.styleguide.space as string;
    expect((await s.api('DELETE', base())).status).toBe(205);
    expect(await runs()).toBe(0);
    expect((await s.api('GET', `/v1/spaces/${sg}`)).status).toBe(200);
  });
});
