import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { expectContract } from '../helpers/contract.js';
import { tempDir, startServer } from '../helpers/server.js';

/**
 * docs cr: create, edit, pages, diff, merge (clean and with conflicts: exit 5 and the pages
 * listed), update, list, get. In-process all of it; against a server (each command a process
 * under a second) the calls that differ by transport, the rest being covered by
 * test/transport/cr-parity.test.ts.
 */
async function scenario(env: Record<string, string>, full: boolean) {
  const run = async (...args: string[]) => {
    const r = await docs(args, env);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  const dir = tempDir('docs-cr-');
  const src = join(dir, 'src');
  mkdirSync(src);
  writeFileSync(join(src, 'guide.md'), '# Guide\n\nLine one.\n\nLine two.\n\nLine three.\n');
  writeFileSync(join(src, 'setup.md'), '# Setup\n\nInstall it.\n');
  const space = (await run('spaces', 'create', '--title', 'Handbook', '--json')).json.id as string;
  await run('content', 'push', src, '--space', space, '--merge');
  const [guide, setup] = (await run('pages', 'list', space, '--json')).json.pages.map((p: any) => p.id as string);

  writeFileSync(join(dir, 'why.md'), 'Because **A** said so.\n');
  const a = (await run('cr', 'create', space, '--subject', 'Guide by A', '--description', join(dir, 'why.md'), '--json')).json;
  expectContract('POST', `/v1/spaces/${space}/change-requests`, 201, a);
  expect(JSON.stringify(a.description)).toContain('said so.');
  if (full) {
    // --template fills the new change request (its own revision, the space untouched).
    const t = (await run('cr', 'create', space, '--subject', 'Start', '--template', 'getting-started', '--json')).json;
    expect(t.revision).not.toBe(t.revisionInitial);
    await run('cr', 'edit', space, String(t.number), '--status', 'archived', '--yes');
  }
  const b = (await run('cr', 'create', space, '--subject', 'Guide by B', '--json')).json;
  const write = async (n: number, changes: object[]) => {
    const file = join(dir, `changes-${n}-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify({ changes }));
    await run('api', 'POST', `/spaces/${space}/change-requests/${n}/content?compat=false`, '--input', file);
  };
  const body = (one: string) => ({ operation: 'update_page', page: guide, document: { markdown: `${one}\n\nLine two.\n\nLine three.\n` } });
  await write(a.number, [body('Line one by A.')]);
  await write(b.number, [body('Line one by B.')]);

  if (full) expect((await run('cr', 'pages', space, String(a.number))).stdout).toBe(`${guide}  Guide  (guide)\n${setup}  Setup  (setup)\n`);
  expect((await run('cr', 'diff', space, String(a.number))).stdout).toBe(
    '--- a/guide\n+++ b/guide\n@@ -1,7 +1,7 @@\n # Guide\n \n-Line one.\n+Line one by A.\n \n Line two.\n \n Line three.\n',
  );

  // Status moves; a draft is not merged (409: exit 5).
  if (full) {
    expect((await run('cr', 'edit', space, String(b.number), '--status', 'draft', '--json')).json.status).toBe('draft');
    const draft = await docs(['cr', 'merge', space, String(b.number)], env);
    expect(draft.status).toBe(5);
    expect(draft.stderr).toBe(`Error: change request ${b.number} is a draft: set its status to open to merge it\n`);
  }
  const edited = (await run('cr', 'edit', space, b.id, '--status', 'open', '--subject', 'Guide and setup by B', '--json')).json;
  expectContract('PATCH', `/v1/spaces/${space}/change-requests/${b.id}`, 200, edited);
  expect(edited).toMatchObject({ status: 'open', subject: 'Guide and setup by B' });

  expect((await run('cr', 'merge', space, String(a.number))).stdout).toMatch(
    new RegExp(`^Merged change request #${a.number} into space ${space}: revision \\w{20}\\.\\n$`),
  );
  if (full) expect((await run('cr', 'get', space, String(b.number), '--json')).json.outdated).toBe(true);

  // Overlapping edits of line one: nothing merged, the page listed, exit 5.
  const clash = await docs(['cr', 'merge', space, String(b.number)], env);
  expect(clash.status).toBe(5);
  expect(clash.stdout).toMatch(
    new RegExp(
      `^Change request #${b.number} conflicts with space ${space}; nothing changed\\. Conflicts:\\n  content  Guide \\(guide\\)\\n\\nGuide \\(guide\\)\\n@@ line \\d+ @@\\n`,
    ),
  );
  // The clashing lines between git's markers (first-hour-cli.test.ts resolves them).
  expect(clash.stdout).toMatch(new RegExp(`\\n<<<<<<< space\\n[^]*\\n=======\\n[^]*\\n>>>>>>> change request #${b.number}\\n`));
  expect(clash.stderr).toContain('Error: 1 conflict; nothing was merged\n');
  expect(clash.stderr).toContain(`docs cr resolve ${space} ${b.number}`); // the one-command way
  const asJson = await docs(['cr', 'update', space, String(b.number), '--json'], env);
  expect(asJson.status).toBe(5);
  expect(asJson.json).toEqual({ revision: edited.revision, result: 'conflicts', conflicts: [{ kind: 'content', page: guide, title: 'Guide', path: 'guide' }] });

  if (!full) return;
  // Resolve: B drops its guide edit and edits setup instead; update, then merge.
  await write(b.number, [
    { operation: 'revert_page', page: guide },
    { operation: 'update_page', page: setup, document: { markdown: 'Install it with npm.\n' } },
  ]);
  expect((await run('cr', 'update', space, String(b.number))).stdout).toMatch(
    new RegExp(`^Updated change request #${b.number} from space ${space}: revision \\w{20}\\.\\n$`),
  );
  await run('cr', 'merge', space, String(b.number));
  const merged = (await run('cr', 'list', space, '--status', 'merged', '--json')).json;
  expect(merged.items.map((c: any) => [c.number, c.outdated])).toEqual([
    [b.number, false],
    [a.number, false],
    [1, false],
  ]);
}

describe('docs cr', () => {
  it('works in-process', { timeout: 120_000 }, async () => {
    await scenario({ DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_cr' }, true);
  });

  it('works against a server (--api-url, --token)', { timeout: 120_000 }, async () => {
    // In this process on an ephemeral port (the CLI over HTTP is what is tested, not the process).
    const s = await startServer({ dataDir: tempDir(), token: 'gb_api_e2e_cr_remote' });
    try {
      await scenario({ DOCS_API_URL: s.url, DOCS_TOKEN: 'gb_api_e2e_cr_remote' }, false);
    } finally {
      await s.stop();
    }
  });
});
