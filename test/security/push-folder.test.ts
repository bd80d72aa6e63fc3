import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { tempDir, startServer } from '../helpers/server.js';

// Boundary: `docs content push` reads only regular files whose real path is inside the folder
// (issue 26, finding 3). A SUMMARY.md line `* [x](../../../../etc/passwd)` published the file
// as a page; symbolic links (listed in SUMMARY.md, or met in the folder) were followed too. Now:
// exit 2 naming the SUMMARY.md line (or the link), and nothing sent (no change request opened).
// The secret is a file of the test beside the folder, so the test does not depend on /etc.

type Env = Record<string, string>;

async function attack(env: Env) {
  const raw = async (...args: string[]) => await docs(args, env);
  const space = (await raw('spaces', 'create', '--title', 'Push folder', '--json')).json.id as string;
  const root = tempDir('docs-push-folder-');
  const outside = join(root, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.md'), '# Secret\n\nSECRET-7c1f of the runner\n');
  writeFileSync(join(outside, 'secret.png'), 'SECRET-7c1f bytes');
  const dir = join(root, 'docs');
  mkdirSync(dir);
  writeFileSync(join(dir, 'intro.md'), '# Intro\n\nHello.\n');
  const summary = (entry: string) => writeFileSync(join(dir, 'SUMMARY.md'), `# Table of contents\n\n* [Intro](intro.md)\n${entry}\n`);
  const refused = async (entry: string, says: string[]) => {
    const r = await raw('content', 'push', dir, '--space', space, '--merge');
    expect(r.status, `${entry}: ${r.stdout}${r.stderr}`).toBe(2);
    for (const s of says) expect(r.stderr).toContain(s);
    expect(r.stderr).toContain('nothing was sent');
    expect(r.stderr + r.stdout).not.toContain('SECRET-7c1f');
  };

  // A relative path climbing out, deep (as in the report) or not, and an absolute one.
  const deep = `${'../'.repeat(12)}${outside.slice(1)}/secret.md`;
  for (const link of [
    '../outside/secret.md',
    deep,
    join(outside, 'secret.md'),
    '../outside/secret.png',
    './../outside/secret.md',
    '%2E%2E/outside/secret.md',
  ]) {
    summary(`* [x](${link})`);
    await refused(link, ['SUMMARY.md line 4', `[x](${link})`, 'outside']);
  }
  // A symbolic link listed in SUMMARY.md: to a file outside, or through a linked folder.
  symlinkSync(join(outside, 'secret.md'), join(dir, 'leak.md'));
  summary('  * [Leak](leak.md)');
  await refused('leak.md', ['SUMMARY.md line 4', '[Leak](leak.md)', 'real path']);
  symlinkSync(outside, join(dir, 'shared'));
  summary('* [Shared](shared/secret.md)');
  await refused('shared/secret.md', ['SUMMARY.md line 4', '[Shared](shared/secret.md)', 'real path']);
  // Not listed, but met in the folder: without SUMMARY.md a link outside is refused too (as a
  // page or as an uploaded file), naming it.
  writeFileSync(join(dir, 'SUMMARY.md'), '# Table of contents\n\n* [Intro](intro.md)\n');
  await refused('leak.md (walked)', ['leak.md: a symbolic link to', 'outside']);
  const noSummary = tempDir('docs-push-tree-');
  writeFileSync(join(noSummary, 'intro.md'), '# Intro\n');
  mkdirSync(join(noSummary, 'images'));
  symlinkSync(join(outside, 'secret.png'), join(noSummary, 'images', 'logo.png'));
  const walked = await raw('content', 'push', noSummary, '--space', space);
  expect(walked.status).toBe(2);
  expect(walked.stderr).toContain('images/logo.png: a symbolic link to');

  // A file listed twice: refused naming the second line and the first.
  const dup = tempDir('docs-push-dup-');
  writeFileSync(join(dup, 'intro.md'), '# Intro\n');
  writeFileSync(join(dup, 'SUMMARY.md'), '# Table of contents\n\n* [Intro](intro.md)\n* [Again](./intro.md)\n');
  const twice = await raw('content', 'push', dup, '--space', space);
  expect(twice.status).toBe(2);
  expect(twice.stderr).toContain('SUMMARY.md line 4 (* [Again](./intro.md)): intro.md is already listed on line 3');

  // Nothing reached the server: no change request, no page, nothing found by search.
  for (const status of ['open', 'merged']) {
    const crs = await raw('api', 'GET', `/spaces/${space}/change-requests`, '-f', `status=${status}`, '--json');
    expect(crs.status, crs.stderr).toBe(0);
    expect(crs.json.items).toEqual([]);
  }
  expect((await raw('search', 'SECRET', '--space', space, '--json')).stdout).not.toContain('SECRET-7c1f');

  // Links to files inside the folder are fine (the link is read as its target), and a link to
  // a folder inside is not followed (a warning): the push goes through.
  const ok = tempDir('docs-push-ok-');
  writeFileSync(join(ok, 'intro.md'), '# Intro\n\nSee the [logo](./images/logo.png).\n');
  mkdirSync(join(ok, 'assets'));
  writeFileSync(join(ok, 'assets', 'logo.png'), 'png');
  mkdirSync(join(ok, 'images'));
  symlinkSync('../assets/logo.png', join(ok, 'images', 'logo.png'));
  symlinkSync('../assets', join(ok, 'images', 'again'));
  const pushed = await raw('content', 'push', ok, '--space', space, '--merge', '--json');
  expect(pushed.status, pushed.stderr).toBe(0);
  expect(pushed.stderr).toContain('Warning: images/again: a symbolic link to a folder, not followed');
  expect(pushed.json).toMatchObject({ added: 1, files: 2, merged: true });
}

describe('docs content push reads only files inside the folder', () => {
  it('in-process', { timeout: 60_000 }, async () => {
    await attack({ DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_push_folder' });
  });

  it('against a server (--api-url)', { timeout: 60_000 }, async () => {
    const s = await startServer({ dataDir: tempDir(), token: 'gb_api_push_folder_remote' });
    try {
      await attack({ DOCS_API_URL: s.url, DOCS_TOKEN: 'gb_api_push_folder_remote' });
    } finally {
      await s.stop();
    }
  });
});
