import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docs, type CliResult } from '../helpers/cli.js';
import { withServer } from '../helpers/loopback.js';
import { tempDir, startServer } from '../helpers/server.js';

// Docs as code closes the loop (issue 20, item 7): a push updates the change request it opened
// before (or the one named by --change-request) instead of opening one per run; files SUMMARY.md
// does not list are named (and refused with --strict); links are checked on a change request; a
// merge conflict prints the CLI steps that resolve it (content-conflict-cli.test.ts); natural
// order and a root README first.
// And (item 12) pull writes page text when a server answers a Document instead of markdown.

type Env = Record<string, string>;

function runner(env: Env) {
  const run = async (...args: string[]) => {
    const r = await docs(args, env);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  return { run, raw: async (...args: string[]) => await docs(args, env) };
}

/** The transport-sensitive part, run in-process and against `docs serve`. */
async function loop(env: Env) {
  const { run, raw } = runner(env);
  const space = (await run('spaces', 'create', '--title', 'Loop', '--json')).json.id as string;
  const src = tempDir('docs-loop-src-');
  writeFileSync(join(src, '10-ten.md'), '# Ten\n\nTen.\n');
  writeFileSync(join(src, '2-two.md'), '# Two\n\nTwo.\n');
  writeFileSync(join(src, '1-one.md'), '# One\n\nOne.\n');
  writeFileSync(join(src, 'README.md'), '# Welcome\n\nStart here.\n');

  // First push: a new change request; the folder tree in natural order, README.md first.
  const first = (await run('content', 'push', src, '--space', space, '--json')).json;
  expect(first).toMatchObject({ number: 1, target: 'new', added: 4, merged: false });
  const out = join(tempDir('docs-loop-pull-'), 'cr');
  await run('content', 'pull', out, '--space', space, '--change-request', '1');
  expect(readFileSync(join(out, 'SUMMARY.md'), 'utf8')).toBe(
    '# Table of contents\n\n* [Welcome](README.md)\n* [One](1-one.md)\n* [Two](2-two.md)\n* [Ten](10-ten.md)\n',
  );

  // Pushing again: the same change request, found by the push's marker (no second one).
  writeFileSync(join(src, '2-two.md'), '# Two\n\nTwo, see [gone](./gone.md).\n');
  const again = (await run('content', 'push', src, '--space', space, '--message', 'Docs update', '--json')).json;
  expect(again).toMatchObject({ number: 1, target: 'earlier', added: 0, updated: 1 });
  const same = await run('content', 'push', src, '--space', space);
  expect(same.stdout).toContain('#1');
  expect(same.stdout).toContain('earlier push');

  // Links of the change request before merging it: the broken one it introduced.
  const links = await raw('links', space, '--change-request', '1', '--fail-on-broken', '--json');
  expect(links.status).toBe(1);
  expect(links.json.stats).toEqual({ total: 1, broken: { total: 1, changeRequest: 1 } });
  expect(links.json.items[0].status).toBe('broken');

  // --change-request N: that one; merged, it is refused; unknown, not found.
  const merged = (await run('content', 'push', src, '--space', space, '--change-request', '1', '--merge', '--json')).json;
  expect(merged).toMatchObject({ number: 1, target: 'given', merged: true });
  const closed = await raw('content', 'push', src, '--space', space, '--change-request', '1');
  expect(closed.status).toBe(2);
  expect(closed.stderr).toContain('--change-request');
  expect(closed.stderr).toContain('merged');
  expect((await raw('content', 'push', src, '--space', space, '--change-request', '99')).status).toBe(3);

  // A SUMMARY.md that leaves files out: --strict refuses (nothing sent); without it, a warning each.
  writeFileSync(join(src, 'SUMMARY.md'), '# Table of contents\n\n* [Welcome](README.md)\n* [Two](2-two.md)\n');
  const strict = await raw('content', 'push', src, '--space', space, '--strict');
  expect(strict.status).toBe(2);
  expect(strict.stderr).toContain('1-one.md');
  expect(strict.stderr).toContain('10-ten.md');
  const loose = await run('content', 'push', src, '--space', space, '--json');
  expect(loose.stderr).toContain('Warning: skipped 1-one.md: not in SUMMARY.md');
  expect(loose.stderr).toContain('Warning: skipped 10-ten.md: not in SUMMARY.md');
  // #2 and new: the refused push opened no change request.
  expect(loose.json).toMatchObject({ number: 2, target: 'new', deleted: 2 });
}

describe('docs content push: one change request per folder, --change-request, --strict; docs links --change-request', () => {
  it('in-process', { timeout: 60_000 }, async () => {
    await loop({ DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_loop' });
  });

  it('against a server (--api-url)', { timeout: 60_000 }, async () => {
    const s = await startServer({ dataDir: tempDir(), token: 'gb_api_e2e_loop_remote' });
    try {
      await loop({ DOCS_API_URL: s.url, DOCS_TOKEN: 'gb_api_e2e_loop_remote' });
    } finally {
      await s.stop();
    }
  });
});

/** `docs content pull` against a minimal contract server whose pages come as Documents. */
async function pullFrom(page: (req: IncomingMessage) => unknown) {
  const asked: string[] = [];
  const dir = join(tempDir(), 'out');
  let r: CliResult | undefined;
  await withServer(
    (req, res) => {
      const url = new URL(req.url!, 'http://x');
      asked.push(url.pathname + url.search);
      res.setHeader('content-type', 'application/json');
      const doc = {
        object: 'document',
        data: {},
        nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'From a Document.', marks: [] }] }] }],
      };
      if (url.pathname === '/v1/spaces/s1/content/pages') {
        return res.end(
          JSON.stringify({
            pages: [
              { object: 'revision-page', id: 'p1', type: 'document', kind: 'sheet', title: 'Intro', slug: 'intro', path: 'intro', pages: [], document: doc },
            ],
          }),
        );
      }
      if (url.pathname === '/v1/spaces/s1/content/files') return res.end(JSON.stringify({ items: [] }));
      if (url.pathname === '/v1/spaces/s1/content/page/p1')
        return res.end(JSON.stringify({ id: 'p1', type: 'document', title: 'Intro', path: 'intro', ...(page(req) as object) }));
      res.statusCode = 404;
      res.end(JSON.stringify({ error: { code: 404, message: `no ${url.pathname}` } }));
    },
    async (url) => {
      r = await docs(['content', 'pull', dir, '--space', 's1', '--api-url', url, '--token', 't']);
    },
  );
  return { ...r!, dir, asked };
}

describe('docs content pull against a server that answers Documents', () => {
  const doc = {
    object: 'document',
    data: {},
    nodes: [
      { object: 'block', type: 'heading-2', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Setup', marks: [] }] }] },
      { object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Install it.', marks: [{ type: 'bold' }] }] }] },
    ],
  };

  it('asks format=markdown, and converts a Document when that is all it gets', { timeout: 20_000 }, async () => {
    const r = await pullFrom(() => ({ document: doc }));
    expect(r.status, r.stderr).toBe(0);
    expect(r.asked.some((a) => a.startsWith('/v1/spaces/s1/content/page/p1?') && a.includes('format=markdown'))).toBe(true);
    expect(readFileSync(join(r.dir, 'intro.md'), 'utf8')).toBe('# Intro\n\n## Setup\n\n**Install it.**\n');
    expect(r.stderr).toContain('converted to markdown');
  });

  it('fails, writing nothing, when a page has neither markdown nor a document', { timeout: 20_000 }, async () => {
    const r = await pullFrom(() => ({}));
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('intro');
    expect(existsSync(r.dir) ? readdirSync(r.dir) : []).toEqual([]);
  });
});
