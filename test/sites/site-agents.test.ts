import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { runBoth } from '../helpers/parity.js';
import { withServer } from '../helpers/loopback.js';
import { addUser } from '../helpers/people.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';
import { integrationManifest } from '../helpers/world.js';
import { all, api, attrOf, get, page, pagesByTitle, spaceWith, textOf } from '../published/fixture.js';

// A site's agent channels, navigation external links, agent settings and agent feedback,
// duplicating a site space and the site template (docs/manual/site-agents.md). Every answer
// through s.api is checked against both specs.

let s: TestServer;
let call: ReturnType<typeof api>;
let org: string;
let reader: { userId: string; token: string };
let alpha: { space: any; pages: Record<string, any> };
let beta: { space: any; pages: Record<string, any> };
beforeAll(async () => {
  s = await startServer();
  call = api(s);
  org = (await call('GET', '/v1/orgs')).items[0].id;
  reader = await addUser(s.ctx, org, 'read');
  alpha = await spaceWith(s, org, 'Alpha', [page('a', 'Install', '# Install\n\nRun the zebracorn installer.\n')]);
  beta = await spaceWith(s, org, 'Beta', [page('b', 'Usage', '# Usage\n\nThe quokkafish command.\n')]);
}, 60_000);
afterAll(async () => {
  await s?.stop();
});

/** A site of sections: one section holding `spaces` (the first one the section's only variant when alone). */
async function sectionSite(title: string, spaces: string[]) {
  const site = await call('POST', `/v1/orgs/${org}/sites`, { title });
  const o = `/v1/orgs/${org}/sites/${site.id}`;
  const section = await call('POST', `${o}/sections`, { spaceId: spaces[0] }, 201);
  for (const sp of spaces.slice(1)) await call('POST', `${o}/site-spaces`, { spaceId: sp, sectionId: section.id }, 201);
  return { id: site.id as string, o, section: section.id as string };
}

const structure = async (o: string) => (await call('GET', `${o}/structure`)).structure;

describe('site channels', () => {
  it('creates, lists, reads, changes and removes a channel; bad input changes nothing', async () => {
    const { o } = await sectionSite('Channels', [alpha.space.id]);
    const made = await s.api('POST', `${o}/channels`, { body: { type: 'builtin:slack', setupSettings: { allowedChannels: ['support', 'help-*'] } } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({
      object: 'site-channel',
      type: 'builtin:slack',
      setupSettings: { allowedChannels: ['support', 'help-*'] },
      role: 'support',
      // No slack integration installed on the site: waiting for it.
      status: 'pending',
      answers: 0,
      urls: { location: `${s.url}${o}/channels/${made.body.id}` },
    });
    expect(made.headers.get('location')).toBe(made.body.urls.location);
    const id = made.body.id;

    // One channel per tool; a pattern outside the spec's is a 400 (the validator's or ours).
    expect((await s.api('POST', `${o}/channels`, { body: { type: 'builtin:slack', setupSettings: {} } })).status).toBe(409);
    expect((await s.api('POST', `${o}/channels`, { body: { type: 'builtin:github', setupSettings: { allowedRepositories: ['no-slash'] } } })).status).toBe(400);
    // Below the role: a reader may read, not add.
    const denied = await s.api('POST', `${o}/channels`, { token: reader.token, body: { type: 'builtin:linear', setupSettings: {} } });
    expect(denied.status).toBe(403);
    const listed = await s.api('GET', `${o}/channels`, { token: reader.token });
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((c: any) => c.type)).toEqual(['builtin:slack']);

    const changed = await s.api('PATCH', `${o}/channels/${id}`, { body: { role: 'collaborator' } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ role: 'collaborator', setupSettings: { allowedChannels: ['support', 'help-*'] } });
    const setup = await s.api('PATCH', `${o}/channels/${id}`, { body: { type: 'builtin:discord', setupSettings: { allowedChannels: ['general'] } } });
    expect(setup.body).toMatchObject({ type: 'builtin:discord', setupSettings: { allowedChannels: ['general'] }, role: 'collaborator' });
    expect((await s.api('GET', `${o}/channels/${id}`)).body.type).toBe('builtin:discord');

    // Active once the tool's integration is installed on the organization's sites, pending again without it.
    await call('POST', '/v1/integrations/discord', integrationManifest(org, { title: 'Discord' }));
    const inst = await call('POST', '/v1/integrations/discord/installations', { organization: org });
    expect((await s.api('GET', `${o}/channels/${id}`)).body.status).toBe('active');
    await call('PATCH', `/v1/integrations/discord/installations/${inst.id}`, { site_selection: 'selected' });
    expect((await s.api('GET', `${o}/channels/${id}`)).body.status).toBe('pending');

    expect((await s.api('GET', `${o}/channels/nosuchchannel0000000`)).status).toBe(404);
    expect((await s.api('PATCH', `${o}/channels/nosuchchannel0000000`, { body: { role: 'support' } })).status).toBe(404);
    expect((await s.api('DELETE', `${o}/channels/${id}`, { token: reader.token })).status).toBe(403);
    expect((await s.api('DELETE', `${o}/channels/${id}`)).status).toBe(205);
    expect((await s.api('DELETE', `${o}/channels/${id}`)).status).toBe(204);
    expect((await s.api('GET', `${o}/channels`)).body.items).toEqual([]);
  });
});

describe('site external links', () => {
  it('adds a link shown in the published navigation; hostile URLs are refused and change nothing', async () => {
    const flat = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Flat links', spaces: [alpha.space.id] });
    const refused = await s.api('POST', `/v1/orgs/${org}/sites/${flat.id}/external-links`, { body: { title: 'Status', url: 'https://status.example.com' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('simple structure');

    const { o, id } = await sectionSite('Links', [alpha.space.id]);
    const before = await structure(o);
    for (const [url, words] of [
      ['javascript:alert(1)', 'javascript:'],
      ['https://user:secret@example.com/', 'user name or password'],
      // Refused by the contract's format already, or by the link rule: a 400 either way.
      ['https://ex ample.com/', ''],
      [`https://example.com/${'a'.repeat(2100)}`, ''],
      ['ftp://example.com/file', 'ftp:'],
    ]) {
      const r = await s.api('POST', `${o}/external-links`, { body: { title: 'Bad link', url } });
      expect(r.status, url).toBe(400);
      expect(r.body.error.message).toContain(words);
    }
    expect((await s.api('POST', `${o}/external-links`, { body: { title: 'Bad', url: 'https://x.example.com', parent: 'nosuchgroup000000000' } })).status).toBe(
      400,
    );
    expect((await s.api('POST', `${o}/external-links`, { token: reader.token, body: { title: 'Status', url: 'https://status.example.com' } })).status).toBe(
      403,
    );
    expect(await structure(o)).toEqual(before);

    const made = await s.api('POST', `${o}/external-links`, { body: { title: 'Status page', url: 'https://status.example.com/', description: 'Is it up?' } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toEqual({
      object: 'site-external-link',
      id: made.body.id,
      title: 'Status page',
      url: 'https://status.example.com/',
      description: 'Is it up?',
      draft: false,
    });
    expect(made.headers.get('location')).toBe(`${s.url}${o}/external-links/${made.body.id}`);
    const draft = (await call('POST', `${o}/external-links`, { title: 'Coming soon', url: 'mailto:team@example.com', draft: true }, 201)).id;
    const items = await structure(o);
    expect(items.map((i: any) => i.object)).toEqual(['site-section', 'site-external-link', 'site-external-link']);

    // The published site's header navigation shows the live link, not the draft.
    const published = (await call('POST', `${o}/publish`)).urls.published.split('?')[0];
    const html = await get(s, published);
    const links = all(html.doc, (n) => n.tagName === 'a' && (attrOf(n, 'class') ?? '').includes('external'));
    expect(links.map((n) => [attrOf(n, 'href'), textOf(n)])).toEqual([['https://status.example.com/', 'Status page']]);
    expect(attrOf(links[0], 'rel')).toBe('noopener noreferrer');

    // Into a group, then changed; a bad new URL changes nothing.
    const group = await call('POST', `${o}/section-groups`, { title: 'More' }, 201);
    const moved = await s.api('PATCH', `${o}/external-links/${made.body.id}`, { body: { parent: group.id, title: 'Status' } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ sectionGroup: group.id, title: 'Status' });
    expect((await s.api('PATCH', `${o}/external-links/${made.body.id}`, { body: { url: 'data:text/html,hi' } })).status).toBe(400);
    const inGroup = (await structure(o)).find((i: any) => i.id === group.id);
    expect(inGroup.children.map((c: any) => [c.object, c.url])).toEqual([['site-external-link', 'https://status.example.com/']]);
    expect((await s.api('PATCH', `${o}/external-links/nosuchlink0000000000`, { body: { title: 'X link' } })).status).toBe(404);
    // Deleting the group moves its link to the root, after the root's own links.
    await call('DELETE', `${o}/section-groups/${group.id}`);
    expect((await structure(o)).map((i: any) => i.title)).toEqual(['Alpha', 'Coming soon', 'Status']);

    // A condition the visitor does not meet hides it.
    await call('PATCH', `${o}/external-links/${made.body.id}`, { condition: 'visitor.claims.plan == "pro"' });
    expect((await get(s, published)).text).not.toContain('status.example.com');

    expect((await s.api('DELETE', `${o}/external-links/${draft}`, { token: reader.token })).status).toBe(403);
    expect((await s.api('DELETE', `${o}/external-links/${draft}`)).status).toBe(205);
    expect((await s.api('DELETE', `${o}/external-links/${draft}`)).status).toBe(204);
    expect(id).toBeTruthy();
  });
});

describe('duplicateSiteSpace', () => {
  it("copies a section's only variant into a new section after it, else beside it as a variant", async () => {
    const { o, section } = await sectionSite('Dup', [alpha.space.id]);
    const ss = (await call('GET', `${o}/site-spaces`)).items[0];
    const dup = await s.api('POST', `${o}/site-spaces/${ss.id}/duplicate`, { body: {} });
    expect(dup.status, JSON.stringify(dup.body)).toBe(201);
    expect(dup.body.title).toBe('Alpha (copy)');
    expect(dup.body.space.id).not.toBe(alpha.space.id);
    expect(dup.headers.get('location')).toBe(`${s.url}${o}/site-spaces/${dup.body.id}`);
    // The content is copied.
    expect(Object.keys(await pagesByTitle(s, dup.body.space.id))).toEqual(['Install']);
    const secs = (await structure(o)).filter((i: any) => i.object === 'site-section');
    expect(secs.map((x: any) => x.id)[0]).toBe(section);
    expect(secs).toHaveLength(2);
    expect(secs[1].siteSpaces.map((x: any) => x.id)).toEqual([dup.body.id]);

    // Two variants now? No: each section has one. Add a variant, then duplicate it as a draft.
    await call('POST', `${o}/site-spaces`, { spaceId: beta.space.id, sectionId: section }, 201);
    const betaSs = (await call('GET', `${o}/site-spaces`)).items.find((x: any) => x.space.id === beta.space.id);
    const variant = await s.api('POST', `${o}/site-spaces/${betaSs.id}/duplicate`, { body: { draft: true } });
    expect(variant.status).toBe(201);
    expect(variant.body).toMatchObject({ section, hidden: true, draft: true, title: 'Beta (copy)' });

    const n = (await call('GET', `${o}/site-spaces`)).items.length;
    expect((await s.api('POST', `${o}/site-spaces/nosuchsitespace00000/duplicate`, { body: {} })).status).toBe(404);
    expect((await s.api('POST', `${o}/site-spaces/${ss.id}/duplicate`, { token: reader.token, body: {} })).status).toBe(403);
    expect((await call('GET', `${o}/site-spaces`)).items.length).toBe(n);
  });
});

describe('applyTemplateToSite', () => {
  it('fills an empty site with sections, spaces, pages and page feedback; a site with content is a 409', async () => {
    const site = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Templated' });
    const o = `/v1/orgs/${org}/sites/${site.id}`;
    expect((await s.api('POST', `${o}/template`, { token: reader.token })).status).toBe(403);
    const r = await s.api('POST', `${o}/template`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const items = await structure(o);
    expect(items.map((i: any) => i.title)).toEqual(['Getting started', 'API reference']);
    const started = items[0].siteSpaces[0].space.id;
    expect(Object.keys(await pagesByTitle(s, started))).toEqual(['Overview', 'Quickstart', 'Installation']);
    expect((await call('GET', `${o}/customization`)).feedback).toEqual({ enabled: true });

    const again = await s.api('POST', `${o}/template`);
    expect(again.status).toBe(409);
    expect(await structure(o)).toEqual(items);
  });
});

describe('site agent settings', () => {
  it("stores the settings; the site's MCP endpoint gives its instructions to agents", async () => {
    const { o } = await sectionSite('Agent settings', [alpha.space.id]);
    const first = await s.api('GET', `${o}/agent-settings`, { token: reader.token });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ object: 'site-agent-settings', scans: { topics: 'auto' }, findings: { changeRequests: 'auto-fixable' } });
    const doc = {
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'paragraph',
          data: {},
          nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Always link the page you quote.', marks: [] }] }],
        },
      ],
    };
    const body = { scans: { topics: 'never' }, findings: { changeRequests: 'never' }, editing: { customInstructions: doc } };
    expect((await s.api('PUT', `${o}/agent-settings`, { token: reader.token, body })).status).toBe(403);
    const put = await s.api('PUT', `${o}/agent-settings`, { body });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ scans: { topics: 'never' }, findings: { changeRequests: 'never' }, editing: { customInstructions: doc } });
    expect((await s.api('GET', `${o}/agent-settings`)).body).toEqual(put.body);
    expect((await s.api('PUT', `${o}/agent-settings`, { body: { ...body, scans: { topics: 'sometimes' } } })).status).toBe(400);

    // With a model configured, a question asked on the site carries them to the model.
    const seen: any[] = [];
    await withServer(
      (req, res) => {
        let text = '';
        req.on('data', (c) => (text += c));
        req.on('end', () => {
          seen.push(JSON.parse(text));
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'Run the zebracorn installer [1].' } }] }));
        });
      },
      async (llm) => {
        process.env.DOCS_ASK_LLM_URL = `${llm}/v1`;
        process.env.DOCS_ASK_LLM_MODEL = 'tiny';
        try {
          const asked = await s.api('POST', `${o}/ask?format=markdown`, {
            body: { question: 'How do I run the zebracorn installer?', scope: { mode: 'all' } },
          });
          expect(asked.status, JSON.stringify(asked.body)).toBe(200);
        } finally {
          delete process.env.DOCS_ASK_LLM_URL;
          delete process.env.DOCS_ASK_LLM_MODEL;
        }
      },
    );
    expect(seen).toHaveLength(1);
    expect(seen[0].messages[0].content).toContain("The site's instructions:\n\nAlways link the page you quote.");

    const url = (await call('POST', `${o}/publish`)).urls.published.split('?')[0];
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
    try {
      expect(client.getInstructions()).toContain('Always link the page you quote.');
    } finally {
      await client.close();
    }
  });
});

describe('agent feedback', () => {
  it('records both forms as agent_feedback insight events; a page outside the site is a 400', async () => {
    const { o } = await sectionSite('Feedback', [alpha.space.id]);
    const install = alpha.pages.Install.id;
    const old = await s.api('POST', `${o}/agent-feedback`, {
      token: reader.token,
      body: { feedback: 'The installer flag is outdated', url: 'https://docs.example.com/install', spaceId: alpha.space.id, pageId: install, source: 'mcp' },
    });
    expect(old.status, JSON.stringify(old.body)).toBe(204);
    const wrongSpace = await s.api('POST', `${o}/agent-feedback`, {
      body: { feedback: 'x', url: 'https://docs.example.com/x', spaceId: beta.space.id, pageId: install },
    });
    expect(wrongSpace.status).toBe(400);
    expect(
      (await s.api('POST', `${o}/agent-feedback`, { body: { feedback: 'x', url: 'https://d.example.com/x', spaceId: alpha.space.id, pageId: 'nosuchpage' } }))
        .status,
    ).toBe(400);

    const made = await s.api('POST', `${o}/agents/feedback`, {
      body: {
        reportedBy: { model: 'test-model' },
        subject: { kind: 'mcp-tool', toolName: 'search' },
        feedback: { category: 'reliability', severity: 'low', summary: 'Search missed an exact title' },
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.result).toContain('insights');

    const agg = async (body: object) => {
      const r = await s.api('POST', `${o}/insights/events/aggregate`, { body: { range: 'last24Hours', ...body } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.columns;
    };
    expect((await agg({ groupBy: [{ column: 'eventType' }] }))[0]).toEqual({ column: 'eventType', values: ['agent_feedback'] });
    expect((await agg({ select: [{ column: 'eventPageFeedbackComment' }] }))[0].values.sort()).toEqual([
      'Search missed an exact title',
      'The installer flag is outdated',
    ]);
  });
});

describe('the commands, in process and over HTTP', () => {
  async function cliScenario(env: Record<string, string>) {
    const run = async (args: string[], code = 0) => {
      const r = await docs(args, env);
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(code);
      return r;
    };
    const space = (await run(['spaces', 'create', '--title', 'Guide', '--json'])).json;
    const st = (await run(['sites', 'create', '--title', 'Cli agents', '--json'])).json;
    await run(['sites', 'template', st.id]);
    const ch = (await run(['sites', 'channels', 'create', st.id, '--type', 'github', '--allow', 'acme/*', '--json'])).json;
    const bad = await run(['sites', 'channels', 'create', st.id, '--type', 'slack', '--allow', 'no spaces'], 2);
    expect(bad.stderr).toContain('allowedChannels');
    await run(['sites', 'channels', 'update', st.id, ch.id, '--role', 'collaborator']);
    const channels = (await run(['sites', 'channels', 'list', st.id, '--json'])).json.items.map((c: any) => [c.type, c.role, c.setupSettings]);
    const link = (await run(['sites', 'links', 'add', st.id, '--title', 'Status page', '--url', 'https://status.example.com', '--json'])).json;
    const hostile = await run(['sites', 'links', 'add', st.id, '--title', 'Evil', '--url', 'javascript:alert(1)'], 2);
    expect(hostile.stderr).toContain('javascript:');
    await run(['sites', 'links', 'update', st.id, link.id, '--title', 'Status']);
    await run(['sites', 'agent-settings', 'set', st.id, '--instructions', 'Be brief.']);
    const settings = (await run(['sites', 'agent-settings', 'get', st.id, '--json'])).json;
    const ss = (await run(['site-spaces', 'list', st.id, '--json'])).json.items[0];
    const dup = (await run(['site-spaces', 'duplicate', st.id, ss.id, '--json'])).json;
    await run(['sites', 'feedback', 'send', st.id, '--subject', '{"kind":"generic"}', '--feedback', '{"category":"usability","summary":"Hard to find"}']);
    await run(['sites', 'links', 'delete', st.id, link.id, '--yes']);
    await run(['sites', 'channels', 'delete', st.id, ch.id, '--yes']);
    const structure = (await run(['sites', 'structure', st.id, '--json'])).json.structure.map((i: any) => i.title);
    expect(space.id).toBeTruthy();
    return [channels, settings.editing.customInstructions.nodes.length, dup.title, structure];
  }

  it('the same outcomes', async () => {
    const local = await cliScenario({ DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_cli' });
    const remote = await cliScenario({ DOCS_API_URL: s.url, DOCS_TOKEN: s.token });
    expect(local).toEqual([
      [['builtin:github', 'collaborator', { allowedRepositories: ['acme/*'] }]],
      1,
      'Getting started (copy)',
      ['Getting started', 'Getting started (copy)', 'API reference'],
    ]);
    expect(remote).toEqual(local);
  }, 120_000);

  it('transport parity of the operations', async () => {
    const { local, remote } = await runBoth(s, async (t) => {
      const out: unknown[] = [];
      const organizationId = ((await t.call('createOrganization', { body: { title: 'Parity agents' } })).body as any).id;
      const st = (await t.call('createSite', { path: { organizationId }, body: { title: 'Parity' } })).body as any;
      const p = { organizationId, siteId: st.id };
      out.push((await t.call('applyTemplateToSite', { path: p })).status);
      const ch = await t.call('createSiteChannel', { path: p, body: { type: 'builtin:linear', setupSettings: { allowedTeams: ['ENG'] } } });
      out.push(ch.status, ch.body);
      out.push((await t.call('getSiteChannelById', { path: { ...p, siteChannelId: (ch.body as any).id } })).body);
      const link = await t.call('addExternalLinkToSite', { path: p, body: { title: 'Status', url: 'https://status.example.com' } });
      out.push(link.status, link.body);
      out.push((await t.call('getSiteAgentSettingsById', { path: p })).body);
      const ss = ((await t.call('listSiteSpaces', { path: p })).body as any).items[0];
      out.push((await t.call('duplicateSiteSpace', { path: { ...p, siteSpaceId: ss.id }, body: {} })).status);
      out.push(
        (await t.call('submitAgentFeedbackToSite', { path: p, body: { subject: { kind: 'generic' }, feedback: { category: 'usability', summary: 'Hm' } } }))
          .status,
      );
      out.push((await t.call('deleteSiteExternalLinkById', { path: { ...p, siteExternalLinkId: (link.body as any).id } })).status);
      out.push((await t.call('deleteSiteChannelById', { path: { ...p, siteChannelId: (ch.body as any).id } })).status);
      return out;
    });
    expect(remote).toEqual(local);
  }, 60_000);
});
