import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docs, type CliResult } from '../helpers/cli.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';

// docs integrations statuses | task | render, spaces integrations blocks, sites integrations scripts,
// spaces git remove-legacy: in-process and over HTTP (docs/manual/integrations.md#ui-render-and-tasks).

let s: TestServer;
let tunnel: string;
const got: any[] = [];
let close: () => void;
const ELEMENT = { type: 'element', element: { type: 'block', children: [{ type: 'markdown', content: 'Hi' }] }, state: {}, props: {} };

beforeAll(async () => {
  s = await startServer({ allowPrivateTunnels: true });
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const e = JSON.parse(text);
      got.push(e);
      if (e.type === 'ui_render') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ELEMENT));
      else res.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  tunnel = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  close = () => {
    server.closeAllConnections();
    server.close();
  };
});
afterAll(async () => {
  close?.();
  await s?.stop();
});

const files = tempDir('docs-integration-ui-');
const manifest = join(files, 'integration.json');
const script = join(files, 'index.js');
writeFileSync(
  manifest,
  JSON.stringify({
    title: 'Widgets',
    description: 'Blocks and scripts',
    target: 'all',
    scopes: ['site:script:inject'],
    blocks: [{ id: 'widget', title: 'Widget' }],
  }),
);
writeFileSync(script, 'export default {}');

const OWNER = 'gb_api_integrations_ui_owner';
const transports: [string, () => { env: Record<string, string>; args: string[] }][] = [
  ['in-process', () => ({ env: { DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: OWNER }, args: [] })],
  ['over HTTP', () => ({ env: {}, args: ['--api-url', s.url, '--token', s.token] })],
];

describe.each(transports)('integration UI, task, statuses, blocks and scripts commands %s', (_name, setup) => {
  it('runs each command and prints what the API answers', async () => {
    const { env, args } = setup();
    const run = async (...a: string[]): Promise<CliResult> => await docs([...a, ...args], env);
    const ok = async (...a: string[]) => {
      const r = await run(...a);
      expect(r.status, `${a.join(' ')}: ${r.stderr}`).toBe(0);
      return r;
    };
    const name = `widgets-${Math.random().toString(36).slice(2, 8)}`;
    const org = (await ok('orgs', 'list', '--json')).json.items[0].id;
    await ok('integrations', 'publish', name, '--manifest', manifest, '--script', script, '--org', org);
    await ok('integrations', 'dev', name, '--tunnel', tunnel);
    const inst = (await ok('integrations', 'install', name, '--organization', org, '--json')).json.id;
    const space = (await ok('spaces', 'create', '--org', org, '--title', 'W', '--json')).json.id;
    const site = (await ok('sites', 'create', '--org', org, '--title', 'W site', '--json')).json.id;

    const statuses = (await ok('integrations', 'statuses', '--org', org, '--target', 'space', '--space', space, '--json')).json.items;
    expect(statuses.map((x: any) => [x.integration.name, x.status, x.target])).toEqual([[name, 'active', { type: 'space', spaceId: space }]]);
    expect((await ok('integrations', 'statuses', '--org', org)).stdout).toContain(name);
    expect((await ok('spaces', 'integrations', 'blocks', space, '--json')).json).toEqual([{ name, blocks: [{ id: 'widget', title: 'Widget' }] }]);
    const scripts = (await ok('sites', 'integrations', 'scripts', site, '--org', org, '--json')).json;
    expect(scripts).toEqual([{ script: expect.stringMatching(new RegExp(`/integration-scripts/${inst}/${site}\\.js$`)), cookies: false }]);

    const task = await ok('integrations', 'task', name, '--task', '{"type":"sync"}');
    expect(task.stdout).toContain(`Queued a task for integration ${name}`);
    await expect.poll(() => got.some((e) => e.type === 'integration_task' && e.task?.type === 'sync'), { timeout: 10_000 }).toBe(true);
    got.length = 0;

    const context = JSON.stringify({ type: 'configuration_account', theme: 'light', organizationId: org });
    const post = await ok('integrations', 'render', name, '--component-id', 'configure', '--props', '{}', '--context', context, '--json');
    expect(post.json).toEqual(ELEMENT);
    const get = await ok(
      'integrations',
      'render',
      name,
      '--component-id',
      'configure',
      '--props',
      '{}',
      '--context',
      context,
      '--state',
      '{"n":1}',
      '--get',
      '--json',
    );
    expect(get.json).toEqual(ELEMENT);
    expect(got.filter((e) => e.type === 'ui_render').map((e) => e.state)).toEqual([undefined, { n: 1 }]);
    const bad = await run('integrations', 'task', name, '--task', '{"type":"x"}', '--schedule', '90000');
    expect(bad.status).toBe(2);

    const legacy = await ok('spaces', 'git', 'remove-legacy', space);
    expect(legacy.stdout).toContain('nothing to remove');
  });
});
