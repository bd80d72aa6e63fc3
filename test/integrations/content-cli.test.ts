import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docs, type CliResult } from '../helpers/cli.js';
import { connectMcp, toolText } from '../helpers/mcp.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';
import { manifest as mcpManifest } from './helpers.js';

// docs integrations token | spaces … | sites … in-process and over HTTP (docs/manual/integrations.md#installations-on-spaces-and-sites),
// and the operations as MCP tools. Over HTTP the CLI runs in this process too (a process start per
// command cost ~25 starts of the built CLI): the server is this file's, so the requests are real HTTP.

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s?.stop());

const files = tempDir('docs-integration-content-');
const manifest = join(files, 'integration.json');
const script = join(files, 'index.js');
writeFileSync(manifest, JSON.stringify({ title: 'Content sync', description: 'Syncs content', scopes: ['space:metadata:read'] }));
writeFileSync(script, 'export default {}');

const OWNER = 'gb_api_integrations_content_owner';
type Run = (args: string[], env: Record<string, string>) => Promise<CliResult>;
const transports: [string, () => { env: Record<string, string>; args: string[]; run: Run }][] = [
  ['in-process', () => ({ env: { DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: OWNER }, args: [], run: async (a, e) => await docs(a, e) })],
  ['over HTTP', () => ({ env: {}, args: ['--api-url', s.url, '--token', s.token], run: async (a, e) => await docs(a, e) })],
];

describe.each(transports)('integration installation commands %s', (_name, setup) => {
  it('install on a space and a site, list, get, update, uninstall, and mint a token', async () => {
    const { env, args, run } = setup();
    const ok = async (...a: string[]) => {
      const r = await run([...a, ...args], env);
      expect(r.status, `${a.join(' ')}: ${r.stderr}`).toBe(0);
      return r;
    };
    const name = `sync-${Math.random().toString(36).slice(2, 8)}`;
    const org = (await ok('orgs', 'list', '--json')).json.items[0].id;
    await ok('integrations', 'publish', name, '--manifest', manifest, '--script', script, '--org', org);
    const inst = (await ok('integrations', 'install', name, '--organization', org, '--json')).json.id;
    await ok('integrations', 'configure', name, inst, '--space-selection', 'selected', '--site-selection', 'selected');
    const space = (await ok('spaces', 'create', '--org', org, '--title', 'Synced', '--json')).json.id;
    const site = (await ok('sites', 'create', '--org', org, '--title', 'Synced site', '--json')).json.id;

    expect((await ok('integrations', 'spaces', 'install', name, inst, '--space', space, '--json')).json).toMatchObject({ space, status: 'active' });
    expect((await ok('integrations', 'spaces', 'list', name, inst, '--json')).json.items.map((x: any) => x.space)).toEqual([space]);
    await ok('integrations', 'spaces', 'update', name, inst, space, '--external-ids', 'repo-1');
    expect((await ok('integrations', 'spaces', 'get', name, inst, space, '--jq', '.externalIds[0]')).stdout.trim()).toBe('repo-1');
    const twice = await run(['integrations', 'spaces', 'install', name, inst, '--space', space, ...args], env);
    expect(twice.status, twice.stderr).not.toBe(0);

    expect((await ok('integrations', 'sites', 'install', name, inst, '--site-id', site, '--json')).json.site).toBe(site);
    expect((await ok('integrations', 'sites', 'list', name, inst, '--json')).json.items.map((x: any) => x.site)).toEqual([site]);
    // Across the integration's installations, and one installation by id.
    expect((await ok('integrations', 'site-installations', name, '--json')).json.items.map((x: any) => x.site)).toEqual([site]);
    expect((await ok('integrations', 'space-installations', name, '--json')).json.items.map((x: any) => x.space)).toEqual([space]);
    expect((await ok('integrations', 'installation', name, inst, '--json')).json.id).toBe(inst);
    expect((await ok('sites', 'integrations', 'list', site, '--org', org, '--json')).json.items.map((i: any) => i.name)).toEqual([name]);
    await ok('integrations', 'sites', 'uninstall', name, inst, site, '--yes');
    expect((await ok('integrations', 'sites', 'list', name, inst, '--json')).json.items).toEqual([]);
    const gone = await run(['integrations', 'sites', 'get', name, inst, site, ...args], env);
    expect(gone.status, gone.stderr).toBe(3);

    expect((await ok('integrations', 'installed', '--org', org, '--json')).json.items.map((i: any) => i.name)).toContain(name);
    expect((await ok('integrations', 'status', name, '--org', org, '--jq', '.status')).stdout.trim()).toBe('active');
    expect((await ok('spaces', 'integrations', 'list', space, '--json')).json.items.map((i: any) => i.name)).toEqual([name]);
    expect((await ok('integrations', 'org-installations', '--org', org, '--json')).json.items.map((x: any) => x.installation.id)).toContain(inst);
    const token = (await ok('integrations', 'token', name, inst, '--jq', '.token')).stdout.trim();
    expect(token).toMatch(/^gb_inst_/);
    await ok('integrations', 'spaces', 'uninstall', name, inst, space, '--yes');
    expect((await ok('integrations', 'spaces', 'list', name, inst, '--json')).json.items).toEqual([]);
  }, 180_000);
});

describe('through MCP', () => {
  it('the installation operations are tools with the same rules', async () => {
    const org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
    expect((await s.api('POST', '/v1/integrations/mcp-sync', { body: mcpManifest(org) })).status).toBe(200);
    const inst = (await s.api('POST', '/v1/integrations/mcp-sync/installations', { body: { organization: org } })).body.id;
    const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'MCP space' } })).body.id;
    const agent = await connectMcp(s.url, s.token);
    try {
      const r = await agent.callTool({
        name: 'getIntegrationSpaceInstallation',
        arguments: { integrationName: 'mcp-sync', installationId: inst, spaceId: space },
      });
      expect(r.isError, toolText(r)).toBeFalsy();
      expect(toolText(r)).toContain(space);
      const t = await agent.callTool({ name: 'createIntegrationInstallationToken', arguments: { integrationName: 'mcp-sync', installationId: inst } });
      expect(toolText(t)).toContain('gb_inst_');
      const bad = await agent.callTool({ name: 'installIntegrationOnSpace', arguments: { integrationName: 'mcp-sync', installationId: inst, space: 'nope' } });
      expect(bad.isError).toBe(true);
    } finally {
      await agent.close();
    }
  });
});
