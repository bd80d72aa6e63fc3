import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { tempDir, startServer } from '../helpers/server.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000003000000020806000000', 'hex');

function folder(): string {
  const dir = tempDir('docs-content-src-');
  mkdirSync(join(dir, 'guide'));
  mkdirSync(join(dir, 'images'));
  writeFileSync(join(dir, 'intro.md'), '# Introduction\n\nSee [setup](guide/setup.md) and ![logo](images/logo.png).\n');
  writeFileSync(join(dir, 'guide', 'README.md'), '---\ndescription: How to\n---\n# Guide\n\nThe guide.\n');
  writeFileSync(join(dir, 'guide', 'setup.md'), '# Setup\n\nBack to [intro](../intro.md). Install the **widget**.\n');
  writeFileSync(join(dir, 'images', 'logo.png'), PNG);
  return dir;
}

/**
 * Docs as code: push, no-op push, pull, no-op push of the pull, download (both transports); then,
 * in-process only (each command is a process: the remote path of these is covered by
 * test/transport/content-parity.test.ts), a second push, pages, search, links and templates.
 */
async function scenario(env: Record<string, string>, full: boolean) {
  const run = async (...args: string[]) => {
    const r = await docs(args, env);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  const space = (await run('spaces', 'create', '--title', 'Handbook', '--json')).json.id as string;
  const src = folder();
  const pushed = (await run('content', 'push', src, '--space', space, '--merge', '--message', 'First import', '--json')).json;
  expect(pushed).toMatchObject({ number: 1, merged: true, added: 3, updated: 0, deleted: 0, files: 1 });
  expect((await run('content', 'push', src, '--space', space)).stdout).toBe(`No change: ${src} matches space ${space}.\n`);

  const out = join(tempDir('docs-content-pull-'), 'out');
  expect((await run('content', 'pull', out, '--space', space)).stdout).toBe(`Pulled 3 pages and 1 files into ${out}.\n`);
  expect(readFileSync(join(out, 'SUMMARY.md'), 'utf8')).toBe(
    '# Table of contents\n\n* [Guide](guide/README.md)\n  * [Setup](guide/setup.md)\n* [Introduction](intro.md)\n',
  );
  // The file as it was pushed (links as written), kept with the page (test/e2e/content-roundtrip-cli.test.ts).
  expect(readFileSync(join(out, 'intro.md'), 'utf8')).toBe('# Introduction\n\nSee [setup](guide/setup.md) and ![logo](images/logo.png).\n');
  expect(readFileSync(join(out, 'images', 'logo.png'))).toEqual(PNG);
  expect((await run('content', 'push', out, '--space', space)).stdout).toBe(`No change: ${out} matches space ${space}.\n`);
  const fileId = (await run('files', 'list', space, '--json')).json.items[0].id;
  const saveTo = join(tempDir('docs-dl-'), 'logo.png');
  expect((await run('files', 'download', space, fileId, '--output', saveTo)).stdout).toBe(`Saved images/logo.png (${PNG.length} bytes) to ${saveTo}.\n`);
  expect(readFileSync(saveTo)).toEqual(PNG);
  if (!full) return;

  // An edit and a deletion: one change request, only the differences.
  writeFileSync(join(out, 'guide', 'setup.md'), '# Setup\n\nNow with a [missing page](./nowhere.md).\n');
  writeFileSync(join(out, 'SUMMARY.md'), '# Table of contents\n\n* [Guide](guide/README.md)\n  * [Setup](guide/setup.md)\n');
  const second = (await run('content', 'push', out, '--space', space, '--json')).json;
  expect(second).toMatchObject({ number: 2, merged: false, added: 0, updated: 1, deleted: 1, files: 0 });
  const pages = (await run('pages', 'list', space)).stdout;
  expect(pages).toContain('Introduction'); // not merged yet
  expect((await run('api', 'POST', `/spaces/${space}/change-requests/2/merge`)).status).toBe(0);
  expect((await run('pages', 'list', space)).stdout).not.toContain('Introduction');
  expect((await run('pages', 'get', space, '--path', 'guide/setup')).stdout).toBe('# Setup\n\nNow with a [missing page](./nowhere.md).\n');
  const doc = (await run('pages', 'get', space, '--path', 'guide', '--format', 'document')).json;
  expect(doc.nodes[0].type).toBe('paragraph');

  expect((await run('search', 'guide', '--space', space)).stdout).toContain('Guide  guide');
  const links = await docs(['links', space, '--fail-on-broken'], env);
  expect(links.status).toBe(1);
  expect(links.stdout).toContain('broken  ./nowhere.md  <- guide/setup');
  expect(links.stderr).toBe('Error: 1 broken link\n');

  expect((await run('templates', 'apply', 'faq', '--space', space, '--ref', 'support=https://acme.test/help')).stdout).toBe(
    `Applied template faq to space ${space}.\n`,
  );
  const bad = await docs(['templates', 'apply', 'faq', '--space', space], env);
  expect(bad.status).toBe(2);
  expect(bad.stderr).toContain('params.contentRefs.support: required');
}

describe('docs content, pages, files, search, links, templates', () => {
  it('work in-process', { timeout: 90_000 }, async () => {
    await scenario({ DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_content' }, true);
  });

  it('work against a server (--api-url, --token)', { timeout: 90_000 }, async () => {
    const s = await startServer({ dataDir: tempDir(), token: 'gb_api_e2e_content_remote' });
    try {
      await scenario({ DOCS_API_URL: s.url, DOCS_TOKEN: 'gb_api_e2e_content_remote' }, false);
    } finally {
      await s.stop();
    }
  });
});
