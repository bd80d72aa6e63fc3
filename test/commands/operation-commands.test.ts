import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap, ownerOf } from '../../src/auth/bootstrap.js';
import { invoke } from '../../src/invoke.js';
import type { Context } from '../../src/kernel/context.js';
import { openContext } from '../../src/open.js';
import { docs, type CliResult } from '../helpers/cli.js';
import { addUser } from '../helpers/people.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';

// The commands that made "every operation has a command" true (test/commands/every-operation.test.ts):
// page and file links and backlinks (also on a change request), a change request's revision, files,
// pages, reviewers, contributors and one review, the space's current revision, the deprecated moves
// of site structure, a site space's customization overrides, and openapi create/latest. Each on both
// transports, reading what the scenario wrote.

const OWNER = 'gb_api_operation_commands_owner';
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s?.stop());

/** A second member (a reviewer), written into the store the transport reads. */
async function reviewer(ctx: Context): Promise<{ userId: string; token: string }> {
  const owner = (await ownerOf(ctx))!;
  const org = (await invoke(ctx, 'listOrganizationsForAuthenticatedUser', {}, { userId: owner })).body as { items: { id: string }[] };
  return addUser(ctx, org.items[0]!.id, 'review');
}

type Setup = () => Promise<{ env: Record<string, string>; args: string[]; other: { userId: string; token: string } }>;
const transports: [string, Setup][] = [
  [
    'in-process',
    async () => {
      const dir = tempDir();
      const ctx = await openContext(dir);
      await bootstrap(ctx, OWNER);
      const other = await reviewer(ctx);
      await ctx.store.close();
      return { env: { DOCS_DATA: dir, DOCS_BOOTSTRAP_TOKEN: OWNER }, args: [], other };
    },
  ],
  ['over HTTP', async () => ({ env: {}, args: ['--api-url', s.url, '--token', s.token], other: await reviewer(s.ctx) })],
];

describe.each(transports)('operation commands %s', (_name, setup) => {
  it('read links, backlinks, change-request content, reviews, revisions, site structure moves, overrides and specs', async () => {
    const { env, args, other } = await setup();
    const run = (a: string[], extra: string[] = args) => docs([...a, ...extra], env);
    const ok = async (...a: string[]) => {
      const r = await run(a);
      expect(r.status, `${a.join(' ')}: ${r.stderr}`).toBe(0);
      return r;
    };
    const json = async (...a: string[]) => (await ok(...a, '--json')).json;
    const fails = async (code: number, a: string[], extra = args): Promise<CliResult> => {
      const r = await run(a, extra);
      expect(r.status, `${a.join(' ')}: ${r.stderr}`).toBe(code);
      return r;
    };

    const org = (await json('orgs', 'list')).items[0].id as string;
    const space = (await json('spaces', 'create', '--org', org, '--title', 'Links')).id as string;
    const dir = tempDir();
    writeFileSync(join(dir, 'README.md'), '# Home\n\nRead the [guide](guide.md).\n');
    writeFileSync(join(dir, 'guide.md'), '# Guide\n\n![Logo](images/logo.png)\n');
    mkdirSync(join(dir, 'images'));
    writeFileSync(join(dir, 'images', 'logo.png'), PNG);
    writeFileSync(join(dir, 'SUMMARY.md'), '# Summary\n\n* [Home](README.md)\n* [Guide](guide.md)\n');
    await ok('content', 'push', dir, '--space', space, '--message', 'First', '--merge');

    const pages = (await json('pages', 'list', space)).pages as { id: string; title: string }[];
    const home = pages.find((p) => p.title === 'Home')!.id;
    const guide = pages.find((p) => p.title === 'Guide')!.id;
    const links = (await json('pages', 'links', space, home)).items;
    expect(links.map((l: any) => [l.targetReference?.page?.id, l.status])).toEqual([[guide, 'ok']]);
    expect((await json('pages', 'backlinks', space, guide)).items.map((p: any) => p.page.id)).toEqual([home]);
    const file = (await json('files', 'list', space)).items[0].id as string;
    expect((await json('files', 'backlinks', space, file)).items.map((p: any) => p.page.id)).toEqual([guide]);
    const current = await json('revisions', 'current', space);
    expect(current.pages.map((p: any) => p.id)).toEqual([home, guide]);

    // A change request: its revision, files, a page by path and id, links, contributors, reviewers, one review.
    const cr = await json('cr', 'create', space, '--subject', 'Rename');
    writeFileSync(join(dir, 'guide.md'), '# Guide\n\n![Logo](images/logo.png)\n\nBack [home](README.md).\n');
    await ok('content', 'push', dir, '--space', space, '--change-request', String(cr.number));
    expect((await json('cr', 'revision', space, String(cr.number))).id).not.toBe(current.id);
    expect((await json('cr', 'files', space, String(cr.number))).items.map((f: any) => f.id)).toEqual([file]);
    expect((await json('cr', 'file', space, String(cr.number), file)).id).toBe(file);
    expect((await json('pages', 'get', space, '--path', 'guide', '--change-request', String(cr.number))).markdown).toContain('Back [home]');
    expect((await json('pages', 'get', space, guide)).markdown).not.toContain('Back [home]');
    // The guide links to its image; in the change request also back home.
    expect((await json('pages', 'links', space, guide)).items).toHaveLength(1);
    expect((await json('pages', 'links', space, guide, '--change-request', String(cr.number))).items).toHaveLength(2);
    expect((await json('pages', 'backlinks', space, home, '--change-request', String(cr.number))).items.map((p: any) => p.page.id)).toEqual([guide]);
    expect((await json('pages', 'backlinks', space, home)).items).toEqual([]);
    expect((await json('cr', 'contributors', space, String(cr.number))).items.length).toBe(1);
    await ok('cr', 'request-review', space, String(cr.number), '--user', other.userId);
    expect((await json('cr', 'reviewers', space, String(cr.number))).items.map((u: any) => u.user.id)).toEqual([other.userId]);
    expect((await ok('cr', 'remove-reviewer', space, String(cr.number), other.userId)).stdout).toBe('Removed.\n');
    expect((await json('cr', 'reviewers', space, String(cr.number))).items).toEqual([]);
    const again = await fails(3, ['cr', 'remove-reviewer', space, String(cr.number), other.userId]);
    expect(again.stderr).toContain('was not asked to review');
    const asOther = args.length ? ['--api-url', s.url, '--token', other.token] : ['--token', other.token];
    const review = (await run(['cr', 'review', space, String(cr.number), '--status', 'approved', '--json'], asOther)).json;
    expect((await json('cr', 'get-review', space, String(cr.number), review.id)).status).toBe('approved');
    await fails(3, ['cr', 'get-review', space, String(cr.number), 'NoSuchReview00000000']);

    // Site structure: the deprecated moves reorder as sortSiteStructure does.
    const site = (await json('sites', 'create', '--org', org, '--title', 'Site')).id as string;
    const second = (await json('spaces', 'create', '--org', org, '--title', 'Second')).id as string;
    const a = (await json('site-spaces', 'add', site, '--org', org, '--space-id', space)).id as string;
    const b = (await json('site-spaces', 'add', site, '--org', org, '--space-id', second)).id as string;
    await ok('site-spaces', 'move', site, b, '--org', org, '--before', a);
    expect((await json('site-spaces', 'list', site, '--org', org)).items.map((x: any) => x.id)).toEqual([b, a]);
    await ok('site-spaces', 'move', site, b, '--org', org);
    expect((await json('site-spaces', 'list', site, '--org', org)).items.map((x: any) => x.id)).toEqual([a, b]);
    // Section groups reorder among their siblings too.
    const g1 = (await json('section-groups', 'create', site, '--org', org, '--title', 'Products')).id as string;
    const g2 = (await json('section-groups', 'create', site, '--org', org, '--title', 'Legacy')).id as string;
    await ok('section-groups', 'move', site, g2, '--org', org, '--before', g1);
    expect((await json('section-groups', 'list', site, '--org', org)).items.map((x: any) => x.id)).toEqual([g2, g1]);

    // A site space's overrides: shown, reset (205), reset again (204: exit 3).
    const overrides = tempDir();
    writeFileSync(join(overrides, 'c.json'), JSON.stringify({ title: 'Second docs' }));
    await ok('sites', 'customize', site, '--org', org, '--site-space', b, '--file', join(overrides, 'c.json'));
    expect((await json('site-spaces', 'customization', site, b, '--org', org)).title).toBe('Second docs');
    expect((await ok('site-spaces', 'reset-customization', site, b, '--org', org)).stdout).toContain('Reset');
    await fails(3, ['site-spaces', 'reset-customization', site, b, '--org', org]);

    // OpenAPI: create from a file, a second create of the slug is refused, latest version once processed.
    const specFile = join(dir, 'openapi.yaml');
    writeFileSync(specFile, 'openapi: 3.0.0\ninfo: { title: Pets, version: 1.0.0 }\npaths: {}\n');
    expect((await json('openapi', 'create', '--org', org, '--slug', 'pets', '--file', specFile)).slug).toBe('pets');
    await fails(2, ['openapi', 'create', '--org', org, '--slug', 'pets2']);
    await ok('openapi', 'put', 'pets', '--org', org, '--file', specFile, '--wait');
    const latest = await json('openapi', 'latest', 'pets', '--org', org);
    expect([latest.object, latest.id]).toEqual(['openapi-spec-version', (await json('openapi', 'get', 'pets', '--org', org)).lastVersion]);
  }, 180_000);
});
