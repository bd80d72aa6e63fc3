import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { startServer, tempDir, TEST_TOKEN, type TestServer } from '../helpers/server.js';

// Issue 20, "Bad input": every value the CLI parses itself is checked before any call (exit 2,
// naming the flag and the rule, nothing sent), and a customization's unknown fields are refused
// at every depth: by the server (400, nothing stored) and by the CLI before it sends anything.

// In process (test/helpers/in-process-cli.ts): the same parse, checks and exit codes as the built CLI.
const run = async (args: string[], env: Record<string, string | undefined>) => await docs(args, { DOCS_ORG: undefined, ...env });

const dir = tempDir('docs-bad-input-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => (writeFileSync(join(dir, name), text), join(dir, name));

describe('bad flag values: exit 2 naming the flag and the rule, nothing sent', () => {
  // A server that counts what reaches it: nothing must.
  let counter: Server;
  const seen: string[] = [];
  let env: Record<string, string>;
  beforeAll(async () => {
    counter = createServer((req, res) => (seen.push(`${req.method} ${req.url}`), res.writeHead(500).end('{}')));
    await new Promise<void>((r) => counter.listen(0, '127.0.0.1', r));
    env = { DOCS_API_URL: `http://127.0.0.1:${(counter.address() as AddressInfo).port}`, DOCS_TOKEN: 'gb_api_x', DOCS_ORG: 'orgA' };
  });
  afterAll(() => counter?.close());

  it('numbers, enums, switches, JSON files, dates, --set, contract limits', async () => {
    const badJson = file('bad.json', '{"title": ');
    const typo = file('typo.json', JSON.stringify({ styling: { primaryColour: { light: '#ffffff', dark: '#000000' } } }));
    const cases: [string[], RegExp][] = [
      [['spaces', 'list', '--limit', 'abc'], /--limit: must be an integer from 1 to 1000, got "abc"/],
      [['spaces', 'list', '--limit', '2000'], /--limit: must be an integer from 1 to 1000/],
      [['comments', 'list', 'space1', '--limit', '0'], /--limit: .*greater than or equal to 1/],
      [['cr', 'list', 'space1', '--status', 'done'], /--status: "done" is not one of draft, open, archived, merged, all/],
      [['sites', 'list', '--type', 'gold'], /--type: "gold" is not one of basic, premium/],
      [['sites', 'list', '--published=maybe'], /--published: a switch takes no value, got "maybe" \(use --published or --no-published\)/],
      [['spaces', 'create', '--title', 'x'.repeat(60)], /--title: must NOT have more than 50 characters/],
      [['spaces', 'create', '--input', badJson], /--input: cannot read JSON from .*bad\.json/],
      [['api', 'POST', '/orgs/orgA/spaces', '--input', badJson], /--input: cannot read JSON/],
      [['tokens', 'create', '--user', 'u1', '--expires', '2027-02-31'], /--expires: 2027-02-31 is not a date of the calendar/],
      [['sites', 'customize', 'site1', '--set', 'styling.primaryColor.light'], /--set styling.primaryColor.light: expected KEY.PATH=VALUE/],
      [
        ['sites', 'customize', 'site1', '--site-space', 'ss1', '--file', typo],
        /--file .*typo\.json: styling\.primaryColour: is not an accepted field \(did you mean primaryColor\?\)/,
      ],
      [
        ['sites', 'customize', 'site1', '--site-space', 'ss1', '--set', 'styling.primaryColor={"light":"#fff","dark":"#000","lihgt":"#eee"}'],
        /--set styling\.primaryColor\.lihgt: is not an accepted field \(did you mean light\?\)/,
      ],
      [
        ['sites', 'customize', 'site1', '--site-space', 'ss1', '--set', 'styling.primaryColor.lihgt=#fff'],
        /--set styling\.primaryColor\.lihgt \(styling\.primaryColor\.light\): is required/,
      ],
      [
        ['sites', 'customize', 'site1', '--site-space', 'ss1', '--set', 'styling.primaryColor={"light":"red","dark":"#000"}'],
        /--set styling\.primaryColor\.light: must match pattern/,
      ],
    ];
    // Three at a time: a 2-core machine shared with other test runs.
    const results: Awaited<ReturnType<typeof run>>[] = [];
    for (let i = 0; i < cases.length; i += 3) results.push(...(await Promise.all(cases.slice(i, i + 3).map(async ([args]) => await run(args, env)))));
    results.forEach((r, i) => {
      expect(r.status, `${cases[i]![0].join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr, cases[i]![0].join(' ')).toMatch(cases[i]![1]);
      expect(r.stderr).not.toMatch(/internal error/);
    });
    expect(seen).toEqual([]);
  }, 60_000);
});

describe('customization: unknown fields refused at every depth, both transports', () => {
  let s: TestServer;
  let org: string;
  let site: string;
  let siteSpace: string;
  const data = join(dir, 'data');
  beforeAll(async () => {
    s = await startServer();
    org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
    const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Docs' } })).body.id;
    site = (await s.api('POST', `/v1/orgs/${org}/sites`, { body: { title: 'Site', spaces: [space] } })).body.id;
    siteSpace = (await s.api('GET', `/v1/orgs/${org}/sites/${site}/site-spaces`)).body.items[0].id;
  }, 30_000);
  afterAll(() => s?.stop());

  it('the server answers 400 naming the nested field, and stores nothing', async () => {
    const base = `/v1/orgs/${org}/sites/${site}`;
    const before = (await s.api('GET', `${base}/customization`)).body;
    const typo = structuredClone(before);
    typo.styling.primaryColour = { light: '#ffffff', dark: '#000000' };
    const put = await s.api('PUT', `${base}/customization`, { body: typo });
    expect(put.status).toBe(400);
    expect(put.body.error.message).toMatch(/^body\.styling\.primaryColour: is not an accepted field \(did you mean primaryColor\?\)/);
    const deeper = structuredClone(before);
    deeper.header.links = [{ title: 'Home', to: null, links: [], titel: 'typo' }];
    expect((await s.api('PUT', `${base}/customization`, { body: deeper })).body.error.message).toMatch(
      /^body\.header\.links\.0\.titel: is not an accepted field/,
    );
    const patch = await s.api('PATCH', `${base}/site-spaces/${siteSpace}/customization`, {
      body: { styling: { primaryColor: { light: '#fff', dark: '#000', lihgt: '#eee' } } },
    });
    expect(patch.status).toBe(400);
    expect(patch.body.error.message).toMatch(/^body\.styling\.primaryColor\.lihgt: is not an accepted field/);
    expect((await s.api('GET', `${base}/customization`)).body).toEqual(before);
    // Known fields still pass, at every depth, with null resets in overrides.
    expect(
      (await s.api('PATCH', `${base}/site-spaces/${siteSpace}/customization`, { body: { styling: { theme: 'bold', sidebar: { list: null } } } })).status,
    ).toBe(200);
  });

  it('docs sites customize --set with a nested typo: exit 2 naming it, nothing changed (HTTP and in-process)', async () => {
    const http = { DOCS_API_URL: s.url, DOCS_TOKEN: TEST_TOKEN };
    const before = (await s.api('GET', `/v1/orgs/${org}/sites/${site}/customization`)).body;
    const r = await run(['sites', 'customize', site, '--set', 'styling.primaryColour.light=#fff', '--json'], http);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--set styling\.primaryColour: is not an accepted field \(did you mean primaryColor\?\)/);
    expect(JSON.parse(r.stdout).error.code).toBe(400);
    expect((await s.api('GET', `/v1/orgs/${org}/sites/${site}/customization`)).body).toEqual(before);
    const ok = await run(['sites', 'customize', site, '--set', 'styling.primaryColor.light=#112233', '--json'], http);
    expect(ok.status, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).styling.primaryColor.light).toBe('#112233');

    // In process: the same refusal, and the site's customization as it was.
    const local = { DOCS_DATA: data };
    const created = await run(['sites', 'create', '--title', 'Local', '--json'], local);
    const id = JSON.parse(created.stdout).id;
    const l = await run(['sites', 'customize', id, '--set', 'styling.primaryColour.light=#fff'], local);
    expect(l.status, l.stderr).toBe(2);
    expect(l.stderr).toMatch(/--set styling\.primaryColour: is not an accepted field/);
    const after = await run(['sites', 'customization', id, '--json'], local);
    expect(JSON.parse(after.stdout).styling).not.toHaveProperty('primaryColour');
  }, 60_000);
});
