import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { startServer, tempDir } from '../helpers/server.js';

// docs content check --external (commands/_lib/external-links.ts): each distinct http(s) link
// asked once, HEAD then GET, redirects followed, bounded in count and time, through the outbound
// guard: a loopback address is asked only with DOCS_FETCH_ALLOW_PRIVATE=1, and otherwise listed
// as not checked (never as broken). A folder, and a space (in-process and over HTTP).

let web: Server;
let base: string;
const asked: string[] = [];
beforeAll(async () => {
  web = createServer((req, res) => {
    asked.push(`${req.method} ${req.url}`);
    const path = req.url!;
    if (path === '/ok' || path === '/ok?x=1') return res.writeHead(200).end('ok');
    if (path === '/moved') return res.writeHead(301, { location: '/ok' }).end();
    if (path === '/loop') return res.writeHead(302, { location: '/loop' }).end();
    if (path === '/nohead') return res.writeHead(req.method === 'HEAD' ? 405 : 200).end(req.method === 'HEAD' ? '' : 'fine');
    if (path === '/login') return res.writeHead(403).end();
    if (path === '/slow') return; // never answers
    if (path === '/error') return res.writeHead(503).end();
    res.writeHead(404).end('gone');
  });
  await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
});
afterAll(async () => {
  web.closeAllConnections();
  await new Promise((r) => web.close(r));
});

function folder(): string {
  const dir = tempDir('docs-check-ext-');
  const files: Record<string, string> = {
    'SUMMARY.md': '# Table of contents\n\n* [Intro](intro.md)\n* [More](more.md)\n',
    'intro.md': `# Intro\n\n[a](${base}/ok) [b](${base}/moved) [c](${base}/nohead#part)\n\n[d](${base}/gone) [e](${base}/login)\n`,
    'more.md': `# More\n\n[same](${base}/ok) [again](${base}/gone)\n\n[slow](${base}/slow) [down](${base}/error) [loop](${base}/loop)\n\n[mail](mailto:a@b.example)\n`,
  };
  for (const [name, body] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), body);
  }
  return dir;
}

const allow = { DOCS_FETCH_ALLOW_PRIVATE: '1' };

describe('docs content check DIR --external', () => {
  it('reports each broken link where it is used, asking each URL once; 401/403/429 and redirects to a page are fine', async () => {
    const dir = folder();
    asked.length = 0;
    const r = await docs(['content', 'check', dir, '--external', '--external-timeout', '2000'], allow);
    expect(r.stdout.split('\n').filter(Boolean)).toEqual([
      `${dir}/intro.md:5: broken external link ${base}/gone: HTTP 404`,
      `${dir}/more.md:3: broken external link ${base}/gone: HTTP 404`,
      `${dir}/more.md:5: broken external link ${base}/slow: no answer within 2000 ms`,
      `${dir}/more.md:5: broken external link ${base}/error: HTTP 503`,
      `${dir}/more.md:5: broken external link ${base}/loop: more than 5 redirects`,
    ]);
    expect(r.stderr).toBe(`Error: 5 problems in ${dir}\n`);
    expect(r.status).toBe(1);
    // /ok once although linked twice (and reached again through /moved); /gone asked with HEAD then GET.
    expect(asked.filter((a) => a === 'HEAD /ok')).toHaveLength(2);
    expect(asked.filter((a) => a.endsWith(' /gone'))).toEqual(['HEAD /gone', 'GET /gone']);
    expect(asked).toContain('GET /nohead');
  });

  it('--json: counts, problems of kind broken-external; without --external nothing is asked', async () => {
    const dir = folder();
    const r = await docs(['content', 'check', dir, '--external', '--external-timeout', '2000', '--json'], allow);
    expect(r.status).toBe(1);
    expect(r.json.counts).toEqual({ pages: 2, files: 0, external: 8 });
    expect(r.json.notChecked).toEqual([]);
    expect(new Set(r.json.problems.map((p: any) => p.kind))).toEqual(new Set(['broken-external']));
    asked.length = 0;
    const plain = await docs(['content', 'check', dir], allow);
    expect([plain.status, asked]).toEqual([0, []]);
  });

  it('a loopback address without DOCS_FETCH_ALLOW_PRIVATE: not asked, listed as not checked, exit 0', async () => {
    const dir = folder();
    asked.length = 0;
    const r = await docs(['content', 'check', dir, '--external'], { DOCS_FETCH_ALLOW_PRIVATE: undefined });
    expect(asked).toEqual([]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`No problems in ${dir} (2 pages, 0 files, 8 external links checked).\n`);
    expect(r.stderr).toContain(`Warning: ${base}/ok: ${new URL(base).host}: 127.0.0.1 is a loopback address: not checked`);
    expect(r.stderr.trim().split('\n')).toHaveLength(8);
  });

  it('--external-max bounds the URLs asked; the rest are listed as not checked', async () => {
    const dir = folder();
    asked.length = 0;
    const r = await docs(['content', 'check', dir, '--external', '--external-max', '2', '--json'], allow);
    expect(r.json.counts.external).toBe(2);
    expect(r.json.notChecked).toHaveLength(6);
    expect(r.json.notChecked[0].why).toBe('not checked: over --external-max 2');
    expect(r.status).toBe(0);
  });

  it('bad flag values: exit 2, nothing asked', async () => {
    asked.length = 0;
    const r = await docs(['content', 'check', folder(), '--external', '--external-max', '0'], allow);
    expect(r.status).toBe(2);
    expect(asked).toEqual([]);
  });
});

/** A space whose page links to a gone URL: --space --external reports it by page path. */
async function spaceScenario(e: Record<string, string>) {
  const space = (await docs(['spaces', 'create', '--title', 'Ext', '--json'], e)).json.id as string;
  const dir = tempDir('docs-check-ext-space-');
  writeFileSync(join(dir, 'README.md'), `# Home\n\n[ok](${base}/ok) and [gone](${base}/gone)\n`);
  expect((await docs(['content', 'push', dir, '--space', space, '--merge'], e)).status).toBe(0);
  const r = await docs(['content', 'check', '--space', space, '--external'], { ...e, ...allow });
  expect(r.stdout).toMatch(new RegExp(`^[^\\n]*: broken external link ${base}/gone: HTTP 404\\n$`));
  expect(r.status).toBe(1);
}

describe('docs content check --space --external', () => {
  it('in-process', { timeout: 60_000 }, async () => {
    await spaceScenario({ DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_check_ext' });
  });
  it('over HTTP', { timeout: 60_000 }, async () => {
    const s = await startServer({ dataDir: tempDir(), token: 'gb_api_e2e_check_ext_remote' });
    try {
      await spaceScenario({ DOCS_API_URL: s.url, DOCS_TOKEN: 'gb_api_e2e_check_ext_remote' });
    } finally {
      await s.stop();
    }
  });
});
