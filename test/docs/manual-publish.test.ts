import { cpSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/kernel/root.js';
import { esc } from '../../src/published/render/html.js';
import { docs } from '../helpers/cli.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';

// The project publishes its manual with itself: docs/manual (minus incoming/, the text helpers
// leave for the lead to fold in) is checked as a folder, pushed into a space as one merged change
// request, published as a docs site, and the space's links are checked by the server; then a
// `docs serve` on the same data directory serves every page of the site.

const MANUAL = join(packageRoot(), 'docs', 'manual');
const INCOMING = join(MANUAL, 'incoming');

/** The manual's markdown pages (SUMMARY.md and incoming/ aside), relative to the folder. */
function manualPages(dir = MANUAL): string[] {
  return readdirSync(dir).flatMap((name) => {
    const abs = join(dir, name);
    if (abs === INCOMING) return [];
    if (statSync(abs).isDirectory()) return manualPages(abs);
    return name.endsWith('.md') && abs !== join(MANUAL, 'SUMMARY.md') ? [relative(MANUAL, abs).split(sep).join('/')] : [];
  });
}

/** `n` items of `list` picked by a small seeded generator (mulberry32), so a failure can be run again. */
function sample<T>(list: T[], n: number, seed: number): T[] {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = Math.imul(s ^ (s >>> 15), 1 | s);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const pool = [...list];
  return Array.from({ length: Math.min(n, pool.length) }, () => pool.splice(Math.floor(next() * pool.length), 1)[0]!);
}

describe('the manual publishes with the project', () => {
  let server: TestServer | undefined;
  const made: string[] = [];
  afterAll(async () => {
    await server?.stop();
    for (const d of made) rmSync(d, { recursive: true, force: true });
  });

  /** A copy of the manual without incoming/, as it is published. */
  const copy = () => {
    const folder = tempDir('docs-manual-');
    made.push(folder);
    cpSync(MANUAL, folder, { recursive: true, filter: (src) => src !== INCOMING && !src.startsWith(INCOMING + sep) });
    return folder;
  };
  const pages = manualPages();

  it('checks clean as a folder: every link and anchor resolves, every page is in SUMMARY.md', { timeout: 60_000 }, async () => {
    expect(pages.length).toBeGreaterThan(40);
    const folder = copy();
    const r = await docs(['content', 'check', folder]);
    expect(r.stdout + r.stderr).toBe(`No problems in ${folder} (${pages.length} pages, 0 files checked).\n`);
    expect(r.status).toBe(0);
  });

  // About 30 s on a loaded 2-core machine (markdown parsing, in push and in the server's check).
  it('pushes into a space, publishes it as a site with 0 broken links, and the site serves its pages', { timeout: 180_000 }, async () => {
    const folder = copy();

    const data = tempDir('docs-manual-data-');
    made.push(data);
    const env = { DOCS_DATA: data, DOCS_BOOTSTRAP_TOKEN: 'gb_api_manual_publish' };
    const run = async (...args: string[]) => {
      const r = await docs(args, env);
      expect(r.status, `docs ${args.join(' ')}: ${r.stderr}`).toBe(0);
      return r;
    };
    const space = (await run('spaces', 'create', '--title', 'Manual', '--json')).json.id as string;
    const pushed = (await run('content', 'push', folder, '--space', space, '--merge', '--json')).json;
    expect(pushed).toMatchObject({ merged: true, added: pages.length, updated: 0, deleted: 0 });
    const site = (await run('sites', 'create', '--title', 'Manual', '--spaces', space, '--json')).json;
    await run('sites', 'publish', site.id);

    // The server's link check of the published space: 0 broken links.
    const check = await docs(['content', 'check', '--space', space], env);
    expect(check.stderr).toBe('');
    expect(check.stdout).toMatch(new RegExp(`^No problems in space ${space} \\((\\d+) links checked\\)\\.\\n$`));
    expect(Number(/\((\d+) links/.exec(check.stdout)![1])).toBeGreaterThan(50);
    expect(check.status).toBe(0);

    // A server on the same data directory serves each page of the site (the CLI released it).
    const org = (await run('orgs', 'list', '--json')).json.items[0].id as string;
    const listed = (await run('pages', 'list', space, '--json')).json.pages as { path: string; title: string; pages?: unknown[] }[];
    const paths: { path: string; title: string }[] = [];
    const walk = (list: any[]) => list.forEach((p) => (paths.push({ path: p.path, title: p.title }), walk(p.pages ?? [])));
    walk(listed);
    expect(paths.length).toBe(pages.length);
    server = await startServer({ dataDir: data });
    const base = `${server.url}/sites/${org}/${site.basename}`;
    // Rendering a page costs ~0.3 s of CPU on a loaded 2-core machine: the default run serves a
    // seeded sample (the seed printed), MANUAL_PAGES=all every page.
    const all = process.env.MANUAL_PAGES === 'all';
    const seed = Number(process.env.MANUAL_PAGES_SEED ?? Date.now() % 100_000);
    if (!all)
      console.log(`manual-publish: serving 4 of ${paths.length} pages, seed ${seed} (MANUAL_PAGES_SEED=${seed} repeats it, MANUAL_PAGES=all serves all)`);
    const served = all ? paths : [paths[0]!, ...sample(paths.slice(1), 3, seed)];
    for (const p of served) {
      const res = await fetch(`${base}/${p.path}`);
      const html = await res.text();
      expect(res.status, `${base}/${p.path}`).toBe(200);
      expect(html, p.path).toContain(`<title>${esc(p.title)} | Manual</title>`);
    }
  });
});
