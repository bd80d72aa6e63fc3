import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { tempDir, startServer } from '../helpers/server.js';

/** Every file of a data directory by content hash (the lock file aside: it names the process). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      // search/: derived indexes the background indexer may bring up to date at any time.
      if (statSync(p).isDirectory()) p !== join(dir, 'search') && walk(p);
      else if (!/lock/.test(name)) out[p.slice(dir.length)] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

/**
 * --dry-run of cr merge, sites publish and openapi put: what would change is printed, exit codes
 * are those of the real run, and nothing changes (what the API shows, and in-process the data
 * directory's bytes).
 */
async function scenario(env: Record<string, string>, data?: string) {
  const run = async (...args: string[]) => {
    const r = await docs(args, env);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  const dir = tempDir('docs-dry-');
  const src = join(dir, 'src');
  mkdirSync(src);
  writeFileSync(join(src, 'guide.md'), '# Guide\n\nLine one.\n');
  const space = (await run('spaces', 'create', '--title', 'Handbook', '--json')).json.id as string;
  await run('content', 'push', src, '--space', space, '--merge');
  const [guide] = (await run('pages', 'list', space, '--json')).json.pages.map((p: any) => p.id as string);
  const a = (await run('cr', 'create', space, '--subject', 'A', '--json')).json;
  const b = (await run('cr', 'create', space, '--subject', 'B', '--json')).json;
  const write = async (n: number, markdown: string) => {
    const file = join(dir, `changes-${n}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        changes: [
          { operation: 'update_page', page: guide, document: { markdown } },
          ...(n === a.number ? [{ operation: 'insert_page', title: 'New page', document: { markdown: 'New.\n' } }] : []),
        ],
      }),
    );
    await run('api', 'POST', `/spaces/${space}/change-requests/${n}/content?compat=false`, '--input', file);
  };
  await write(a.number, '# Guide\n\nLine one by A.\n');
  await write(b.number, '# Guide\n\nLine one by B.\n');
  const site = (await run('sites', 'create', '--title', 'Public Docs', '--spaces', space, '--json')).json;
  const state = async () => ({
    space: (await run('spaces', 'get', space, '--json')).json.revision,
    crs: (await run('cr', 'list', space, '--json')).json.items.map((c: any) => [c.number, c.status, c.revision]),
    site: (await run('sites', 'get', site.id, '--json')).json.published,
    specs: (await run('openapi', 'list', '--json')).json.items.length,
  });
  const before = await state();
  const files = data && snapshot(data);

  const merge = await run('cr', 'merge', space, String(a.number), '--dry-run');
  expect(merge.stdout).toMatch(new RegExp(`^Dry run, nothing changed: merging change request #${a.number} into space ${space} would make 2 changes:\\n`));
  expect(merge.stdout).toMatch(/page created +New page/);
  expect(merge.stdout).toMatch(/page edited +Guide \(guide\)/);
  expect((await run('cr', 'merge', space, String(a.number), '--dry-run', '--json')).json).toMatchObject({
    dryRun: true,
    result: 'merge',
    changes: [{ type: 'page_edited' }, { type: 'page_created' }],
  });
  const publish = await run('sites', 'publish', site.id, '--dry-run');
  expect(publish.stdout).toMatch(new RegExp(`^Dry run, nothing changed: site Public Docs \\(${site.id}\\) would be published, visibility public, at `));
  const spec = join(dir, 'openapi.yaml');
  writeFileSync(spec, `openapi: 3.0.3\ninfo: {title: Pets, version: '1'}\npaths: {}\n`);
  expect((await run('openapi', 'put', 'pets', '--file', spec, '--dry-run')).stdout).toBe(
    'Dry run, nothing changed: OpenAPI spec pets would be created, with its first version.\n',
  );
  expect(await state()).toEqual(before);
  if (data) expect(snapshot(data)).toEqual(files);

  // Exit codes as the real run: the merge of A, then B conflicts (5) in a dry run too.
  await run('cr', 'merge', space, String(a.number));
  const clash = await docs(['cr', 'merge', space, String(b.number), '--dry-run'], env);
  expect(clash.status).toBe(5);
  expect(clash.stdout).toMatch(
    new RegExp(`^Change request #${b.number} conflicts with space ${space}; nothing changed\\. Conflicts:\\n  content  Guide \\(guide\\)\\n`),
  );
  expect(clash.stdout).toContain('<<<<<<< space\n'); // the clashing lines, as a real run shows them
  expect(clash.stderr).toMatch(/^Dry run: Error: 1 conflict; nothing was merged\n/);
  await run('sites', 'publish', site.id);
  const again = await docs(['sites', 'publish', site.id, '--dry-run'], env);
  expect([again.status, again.stderr]).toEqual([5, `Error: nothing to change: site ${site.id} is already published\n`]);
}

describe('--dry-run (cr merge, sites publish, openapi put)', () => {
  it('changes nothing in-process', { timeout: 120_000 }, async () => {
    const data = tempDir();
    await scenario({ DOCS_DATA: data, DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_dry' }, data);
  });

  it('changes nothing against a server (--api-url)', { timeout: 120_000 }, async () => {
    const s = await startServer({ dataDir: tempDir(), token: 'gb_api_e2e_dry_remote' });
    try {
      await scenario({ DOCS_API_URL: s.url, DOCS_TOKEN: 'gb_api_e2e_dry_remote' });
    } finally {
      await s.stop();
    }
  });
});
