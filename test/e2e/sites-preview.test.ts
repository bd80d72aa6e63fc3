import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, docs, spawnServe } from '../helpers/cli.js';
import { tempDir } from '../helpers/server.js';

// `docs sites open` prints a published site's address (starting nothing); `docs sites preview`
// serves the data directory on a free loopback port when no server runs, until Ctrl-C.

async function publishedSite(data: string) {
  const env = { DOCS_DATA: data };
  const run = async (...args: string[]) => {
    const r = await docs(args, env);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r.json;
  };
  const space = await run('spaces', 'create', '--title', 'Preview Guides', '--json');
  const site = await run('sites', 'create', '--title', 'Preview Site', '--spaces', space.id, '--json');
  return { env, site, run };
}

describe('docs sites open / preview', () => {
  it('open prints urls.published; an unpublished site is exit 5', async () => {
    const { env, site, run } = await publishedSite(tempDir());
    const unpublished = await docs(['sites', 'open', site.id], env);
    expect([unpublished.status, unpublished.stderr]).toEqual([
      5,
      `Error: site ${site.id} is not published: publish it first (docs sites publish ${site.id})\n`,
    ]);
    await run('sites', 'publish', site.id, '--json');
    const r = await docs(['sites', 'open', site.id], env);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^http:\/\/127\.0\.0\.1:7780\/sites\/\w+\/preview-site\n$/);
  }, 60_000);

  it('preview serves the data directory until interrupted; with a server running, it prints that address and exits', async () => {
    const data = tempDir();
    const { env, site, run } = await publishedSite(data);
    await run('sites', 'publish', site.id, '--json');
    const child = spawn(process.execPath, [BIN, 'sites', 'preview', site.id], {
      env: { ...process.env, DOCS_API_URL: '', DOCS_TOKEN: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += d;
        const m = /^(http:\/\/127\.0\.0\.1:\d+\/sites\/\S+)\n/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`preview exited ${code}: ${out}${err}`)));
    });
    expect(url).not.toContain(':7780/');
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Preview Site');
    const exited = new Promise<number | null>((r) => child.on('exit', r));
    child.kill('SIGINT');
    expect(await exited).toBe(0);

    const server = await spawnServe(['--quiet'], { DOCS_DATA: data });
    try {
      const r = await docs(['sites', 'preview', site.id], env);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toBe(`${server.url}/sites/${new URL(url).pathname.split('/')[2]}/preview-site\n`);
    } finally {
      server.child.kill('SIGINT');
      await server.exited;
    }
  }, 90_000);
});
