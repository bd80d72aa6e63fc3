import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectContract } from '../helpers/contract.js';
import { docs } from '../helpers/cli.js';
import { tempDir, startServer } from '../helpers/server.js';

/** The same scenario on either transport: a site with sections, site spaces, customization, schema, publishing. */
async function scenario(env: Record<string, string>, full: boolean) {
  const run = async (...args: string[]) => {
    const r = await docs(args, env);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  const dir = tempDir();
  const guides = (await run('spaces', 'create', '--title', 'Guides', '--json')).json;
  const api = (await run('spaces', 'create', '--title', 'API', '--json')).json;
  const site = (await run('sites', 'create', '--title', 'Public Docs', '--spaces', guides.id, '--json')).json;
  expectContract('POST', `/v1/orgs/${guides.organization}/sites`, 201, site);
  const section = (await run('sections', 'create', site.id, '--space-id', api.id, '--title', 'API Reference', '--json')).json;
  expect(section).toMatchObject({ title: 'API Reference', path: 'api-reference' });
  const [ss] = (await run('site-spaces', 'list', site.id, '--json')).json.items.filter((x: any) => x.section === section.id);
  const upd = (await run('site-spaces', 'update', site.id, ss.id, '--path', 'v2', '--condition', 'visitor.claims.plan === "pro"', '--json')).json;
  expect(upd).toMatchObject({ path: 'v2', condition: 'visitor.claims.plan === "pro"' });
  expect((await run('site-spaces', 'update', site.id, ss.id, '--no-condition', '--json')).json.condition).toBeUndefined();
  const bad = await docs(['site-spaces', 'update', site.id, ss.id, '--condition', 'alert(1)'], env);
  expect(bad.status).toBe(2);
  expect(bad.stderr).toMatch(/^Error: --condition: unsupported /);

  await run(
    'sites',
    'sort',
    site.id,
    '--item',
    `site-section:${section.id}`,
    '--before',
    `site-section:${(await run('sections', 'list', site.id, '--json')).json.items[0].id}`,
  );
  const tree = (await run('sites', 'structure', site.id)).stdout.split('\n');
  expect(tree[0]).toBe(`${section.id}  API Reference  /api-reference`);
  expect(tree[1]).toBe(`${ss.id}    API  /v2  (default)`);
  expect(tree[2]).toMatch(/^\w+ {2}Public Docs {2}\/public-docs {2}\(default\)$/);

  const custom = (await run('sites', 'customize', site.id, '--set', 'styling.primaryColor.light=#1f6feb', '--set', 'themes.toggeable=false', '--json')).json;
  expect(custom.styling.primaryColor.light).toBe('#1f6feb');
  expect(custom.themes.toggeable).toBe(false);
  // Every spawn costs about half a second: the rest runs on one transport only (parity: test/transport).
  if (!full) {
    expect((await run('sites', 'publish', site.id, '--json')).json.published).toBe(true);
    expect((await run('sites', 'published', site.id, '--json')).json.structure.structure[0].id).toBe(section.id);
    return;
  }
  const file = join(dir, 'customization.json');
  writeFileSync(file, JSON.stringify({ ...custom, styling: { ...custom.styling, corners: 'circular' } }));
  expect((await run('sites', 'customize', site.id, '--file', file, '--json')).json.styling.corners).toBe('circular');
  expect((await run('sites', 'customize', site.id, '--site-space', ss.id, '--set', 'styling.theme=bold', '--json')).json.styling.theme).toBe('bold');

  const schemaFile = join(dir, 'schema.json');
  writeFileSync(
    schemaFile,
    JSON.stringify({ type: 'object', properties: { plan: { type: 'string', enum: ['free', 'pro'], description: 'Plan' } }, additionalProperties: false }),
  );
  expect((await run('sites', 'schema', 'set', site.id, schemaFile)).stdout).toBe('Visitor schema set (1 claims).\n');

  expect((await run('sites', 'publish', site.id, '--json')).json.published).toBe(true);
  const prof = (await run('sites', 'published', site.id, '--json')).json;
  expect(prof.structure.type).toBe('sections');
  expect(prof.customizations.siteSpaces[ss.id].styling.theme).toBe('bold');
  expect((await run('sites', 'delete', site.id, '--yes')).stdout).toBe(
    `Deleted site ${site.id} with its sections and site spaces (the spaces stay; not restorable).\n`,
  );
  const got = await docs(['sites', 'get', site.id], env);
  expect([got.status, got.stderr]).toEqual([3, `Error: site ${site.id} not found\n`]);
}

describe('docs sites', () => {
  it('work in-process', { timeout: 90_000 }, async () => {
    await scenario({ DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_sites' }, true);
  });

  it('work against a server (--api-url, --token)', { timeout: 90_000 }, async () => {
    // In this process on an ephemeral port (the CLI over HTTP is what is tested, not the process).
    const s = await startServer({ dataDir: tempDir(), token: 'gb_api_e2e_sites_remote' });
    try {
      await scenario({ DOCS_API_URL: s.url, DOCS_TOKEN: 'gb_api_e2e_sites_remote' }, false);
    } finally {
      await s.stop();
    }
  });
});
