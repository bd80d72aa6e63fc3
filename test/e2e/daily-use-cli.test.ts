import { spawn, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, docs, onTerminal } from '../helpers/cli.js';
import { withServer } from '../helpers/loopback.js';
import { tempDir } from '../helpers/server.js';
import { tryLock } from '../../src/store/lock.js';

// Issue 20: the CLI as a person and a script meet it. Parse errors name what is wrong (exit 2),
// unknown commands suggest the near one, destructive commands refuse without --yes off a terminal,
// a missing target is exit 3, and a terminal prompt answers "no" (exit 2) or Ctrl-C (exit 130).

const env = { DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_daily' };

describe('whole parse errors', () => {
  it('name every missing argument and flag, in text and --json, exit 2', async () => {
    const merge = await docs(['cr', 'merge'], env);
    expect([merge.status, merge.stderr]).toEqual([2, 'Error: missing arguments SPACE_ID, CHANGE_REQUEST_ID (see docs cr merge --help)\n']);
    const json = await docs(['cr', 'merge', '--json'], env);
    expect(json.status).toBe(2);
    expect(json.json).toEqual({ error: { code: 400, message: 'missing arguments SPACE_ID, CHANGE_REQUEST_ID (see docs cr merge --help)' } });
    const push = await docs(['content', 'push', './docs'], env);
    expect([push.status, push.stderr]).toEqual([2, 'Error: Exactly one of the following must be provided: --site, --space (see docs content push --help)\n']);
  });

  it('a flag value of the wrong type is exit 2 naming the flag, nothing sent', async () => {
    const r = await docs(['spaces', 'list', '--limit', 'abc'], env);
    expect([r.status, r.stderr]).toEqual([2, 'Error: --limit: must be an integer from 1 to 1000, got "abc" (see docs spaces list --help)\n']);
    const unknown = await docs(['spaces', 'list', '--nope'], env);
    expect([unknown.status, unknown.stderr]).toEqual([2, 'Error: unknown flag: --nope (see docs spaces list --help)\n']);
  });

  it('an extra argument is "unexpected argument", also where the command takes none', async () => {
    const none = await docs(['spaces', 'list', 'extra'], env);
    expect([none.status, none.stderr]).toEqual([2, 'Error: unexpected argument: extra (see docs spaces list --help)\n']);
    const one = await docs(['spaces', 'get', 'a', 'b'], env);
    expect([one.status, one.stderr]).toEqual([2, 'Error: unexpected argument: b (see docs spaces get --help)\n']);
  });
});

describe('suggestions, help, version', () => {
  it('a mistyped command names the nearest one', async () => {
    const r = await docs(['spcaes', 'list'], env);
    expect([r.status, r.stderr]).toEqual([2, 'Error: unknown command "spcaes list". Did you mean "docs spaces list"? (see docs --help)\n']);
    expect((await docs(['membres'], env)).stderr).toContain('Did you mean "docs members"?');
  });

  it('a mistyped flag or value names the nearest one; exit 2, nothing done', async () => {
    const json = await docs(['spaces', 'list', '--jsn'], env);
    expect([json.status, json.stderr]).toEqual([2, 'Error: unknown flag: --jsn. Did you mean --json? (see docs spaces list --help)\n']);
    expect((await docs(['spaces', 'delete', 'x', '--yse'], env)).stderr).toContain('Did you mean --yes?');
    // A longer name of the same flag.
    expect((await docs(['collections', 'create', '--title', 'C', '--parent-collection', 'x'], env)).stderr).toContain(
      'unknown flag: --parent-collection. Did you mean --parent?',
    );
    const before = (await docs(['spaces', 'list', '--json'], env)).json.items.length;
    const value = await docs(['spaces', 'create', '--title', 'S', '--visibility', 'publc'], env);
    expect([value.status, value.stderr]).toEqual([
      2,
      'Error: --visibility: "publc" is not one of public, unlisted, share-link, visitor-auth, in-collection, private. Did you mean public? (see docs spaces create --help)\n',
    ]);
    expect((await docs(['spaces', 'list', '--json'], env)).json.items.length).toBe(before);
    // Nothing near: no guess.
    expect((await docs(['spaces', 'list', '--zzzz'], env)).stderr).toBe('Error: unknown flag: --zzzz (see docs spaces list --help)\n');
  });

  it('one flag name for a space: --space answers for a generated --space-id and a repeatable --spaces', async () => {
    const space = (await docs(['spaces', 'create', '--title', 'Flag names', '--json'], env)).json.id;
    const site = await docs(['sites', 'create', '--title', 'Flag site', '--space', space, '--json'], env);
    expect(site.status, site.stderr).toBe(0);
    const api = (await docs(['spaces', 'create', '--title', 'Flag API', '--json'], env)).json.id;
    const section = await docs(['sections', 'create', site.json.id, '--space', api, '--title', 'API Reference', '--json'], env);
    expect(section.status, section.stderr).toBe(0);
    expect((await docs(['sections', 'create', '--help'], env)).stdout).toContain('--space-id');
  });

  it('a destructive command is suggested only for a typo of its own verb', async () => {
    expect((await docs(['spaces', 'delet', 'x'], env)).stderr).toContain('Did you mean "docs spaces delete"?');
    const r = await docs(['tokens', 'rvk'], env);
    expect(r.status).toBe(2);
    expect(r.stderr).not.toContain('revoke');
  });

  it("a required body field left out is named by its flag, not the API's words", async () => {
    const r = await docs(['orgs', 'create'], env);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^Error: missing flag --title \(see docs orgs create --help\)$/m);
  });

  it('orgs create does not offer --openapi-url, which this server refuses; the refusal names a command that exists', async () => {
    expect((await docs(['orgs', 'create', '--help'], env)).stdout).not.toContain('openapi');
    const r = await docs(['orgs', 'create', '--title', 'Specs', '--openapi-url', 'http://127.0.0.1:1/spec.json'], env);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('docs openapi put SLUG --url URL');
    expect((await docs(['openapi', 'put', '--help'], env)).status).toBe(0);
  });

  it('docs help TOPIC and docs version', async () => {
    const help = await docs(['help', 'spaces'], env);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('spaces delete');
    expect((await docs(['help', 'spaces', 'list'], env)).stdout).toContain('$ docs spaces list');
    expect((await docs(['help', 'nope'], env)).status).toBe(2);
    const version = await docs(['version'], env);
    expect(version.status).toBe(0);
    expect(version.stdout).toBe((await docs(['--version'])).stdout);
  });
});

describe('destructive commands in scripts', () => {
  it('refuse without --yes off a terminal; delete names the id and the restore command; a second delete is exit 3', async () => {
    const space = (await docs(['spaces', 'create', '--title', 'Doomed', '--json'], env)).json.id as string;
    const refused = await docs(['spaces', 'delete', space], env);
    expect([refused.status, refused.stderr]).toEqual([
      2,
      `Error: Delete space "Doomed" (${space}): not confirmed; pass --yes to confirm (no terminal to ask on)\n`,
    ]);
    expect((await docs(['spaces', 'get', space], env)).status).toBe(0); // nothing deleted
    const deleted = await docs(['spaces', 'delete', space, '--yes'], env);
    expect([deleted.status, deleted.stdout]).toEqual([0, `Deleted space ${space}. Restore it within 7 days with: docs spaces restore ${space}\n`]);
    const again = await docs(['spaces', 'delete', space, '--yes'], env);
    expect([again.status, again.stderr]).toEqual([3, `Error: space ${space} not found (or already deleted): nothing deleted\n`]);
    expect((await docs(['spaces', 'restore', space], env)).status).toBe(0); // the printed command works
    const team = await docs(['teams', 'delete', 'noSuchTeam', '--yes'], env);
    expect([team.status, team.stderr]).toEqual([3, 'Error: team noSuchTeam not found: nothing deleted\n']);
    const collection = await docs(['collections', 'delete', 'noSuchCollection', '--yes'], env);
    expect(collection.status).toBe(3);
  });

  it('sites unpublish and cr archiving ask too', async () => {
    expect((await docs(['sites', 'unpublish', 'someSite'], env)).stderr).toContain('pass --yes to confirm');
    expect((await docs(['cr', 'edit', 'someSpace', '1', '--status', 'archived'], env)).stderr).toContain('pass --yes to confirm');
  });

  // A real terminal through util-linux `script` (a pty): answer "n", or press Ctrl-C.
  it.skipIf(!existsSync('/usr/bin/script'))('on a terminal: "no" is exit 2 "cancelled", Ctrl-C is exit 130 without an error', async () => {
    const space = (await docs(['spaces', 'create', '--title', 'Kept', '--json'], env)).json.id as string;
    // The keys are typed once the question shows (test/helpers/cli.ts onTerminal), not after a fixed sleep.
    const question = new RegExp(`Delete space "Kept" \\(${space}\\)\\?`);
    const no = await onTerminal(['spaces', 'delete', space], env, [[question, 'n\r']]);
    expect(no.status, no.out).toBe(2);
    expect(no.out).toContain(`Delete space "Kept" (${space})?`); // the question names it
    expect(no.out).toContain('Error: cancelled');
    const interrupted = await onTerminal(['spaces', 'delete', space], env, [[question, '\u0003']]);
    expect(interrupted.status, interrupted.out).toBe(130);
    expect(interrupted.out).not.toContain('Error');
    expect((await docs(['spaces', 'get', space], env)).status).toBe(0);
  });
});

describe('docs auth token', () => {
  it('prints the token of the saved login, or of --token / DOCS_TOKEN; none is exit 4', async () => {
    const conf = tempDir();
    const cfg = { DOCS_CONFIG_DIR: conf };
    const none = await docs(['auth', 'token'], cfg);
    expect(none.status).toBe(4);
    expect(none.stderr).toMatch(/^Error: not logged in/);
    writeFileSync(
      join(conf, 'config.json'),
      JSON.stringify({
        current: 'default',
        profiles: { default: { apiUrl: 'http://127.0.0.1:9', token: 'gb_api_saved' }, ci: { apiUrl: 'http://127.0.0.1:9', token: 'gb_api_ci' } },
      }),
    );
    expect((await docs(['auth', 'token'], cfg)).stdout).toBe('gb_api_saved\n');
    expect((await docs(['auth', 'token', '--profile', 'ci', '--json'], cfg)).json).toEqual({ token: 'gb_api_ci', source: 'profile ci' });
    expect((await docs(['auth', 'token'], { ...cfg, DOCS_TOKEN: 'gb_api_env' })).stdout).toBe('gb_api_env\n');
    expect((await docs(['auth', 'token', '--profile', 'nope'], cfg)).status).toBe(3);
  });
});

describe('shell completion', () => {
  it('__complete answers topics, commands and flags from the manifest', async () => {
    expect((await docs(['__complete'])).stdout.split('\n')).toEqual(expect.arrayContaining(['spaces', 'cr', 'autocomplete']));
    expect((await docs(['__complete'])).stdout).not.toContain('__complete');
    expect((await docs(['__complete', 'spaces'])).stdout.split('\n')).toEqual(expect.arrayContaining(['list', 'delete', 'restore']));
    expect((await docs(['__complete', 'spaces', 'delete'])).stdout.split('\n')).toEqual(expect.arrayContaining(['--yes', '--json', '--api-url']));
  });

  it('the bash script completes through it', async () => {
    const bin = tempDir();
    writeFileSync(join(bin, 'docs'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });
    const script = (await docs(['autocomplete', 'bash'])).stdout;
    const r = spawnSync('bash', ['-c', `${script}\nCOMP_WORDS=(docs spaces li); COMP_CWORD=2; _docs_complete; echo "\${COMPREPLY[@]}"`], {
      encoding: 'utf8',
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
      timeout: 20_000,
    });
    expect(r.stdout.trim()).toBe('list');
    expect((await docs(['autocomplete', 'zsh'])).stdout).toContain('compdef _docs docs');
    expect((await docs(['autocomplete', 'fish'])).stdout).toContain("complete -c docs -f -a '(docs __complete");
    expect((await docs(['autocomplete', 'nope'])).status).toBe(2);
  });
});

describe('pages', () => {
  it('--all follows next.page to the end; a partial list says "N of M" on stderr only', async () => {
    const e = { ...env, DOCS_DATA: tempDir() };
    for (const t of ['One', 'Two', 'Three']) expect((await docs(['spaces', 'create', '--title', t], e)).status).toBe(0);
    const part = await docs(['spaces', 'list', '--limit', '2'], e);
    expect(part.stdout).not.toContain('More');
    expect(part.stderr).toMatch(/^Showing 2 of 3\. More: --page \S+ \(or --all\)\n$/);
    const all = await docs(['spaces', 'list', '--limit', '2', '--all', '--json'], e);
    expect(all.json.items.map((s: any) => s.title).sort()).toEqual(['One', 'Three', 'Two']);
    expect(all.json.next).toBeUndefined();
    const org = all.json.items[0].organization;
    const api = await docs(['api', 'GET', `/orgs/${org}/spaces`, '-f', 'limit=1', '--paginate'], e);
    expect(JSON.parse(api.stdout).items).toHaveLength(3);
    expect((await docs(['api', 'POST', '/orgs', '--paginate'], e)).status).toBe(2);
  });

  it('a server whose next.page repeats is stopped, not followed forever', async () => {
    let calls = 0;
    await withServer(
      (_req, res) => {
        calls++;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ items: [{ id: `s${calls}`, title: 'Loop' }], count: 1000, next: { page: 'same' } }));
      },
      async (url) => {
        const r = await docs(['spaces', 'list', '--org', 'o', '--all', '--api-url', url, '--token', 't']);
        expect(r.stderr).toContain("the server's next.page repeats (same): stopped after 2 items");
        expect(r.status).toBe(1);
        expect(calls).toBeLessThan(5);
      },
    );
  });
});

describe('against another server implementing the contract', () => {
  it('comments get asks for markdown (a server may default to the Document form)', async () => {
    const asked: string[] = [];
    await withServer(
      (req, res) => {
        const url = new URL(req.url!, 'http://x');
        asked.push(url.pathname + url.search);
        const markdown = url.searchParams.get('format') === 'markdown';
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            object: 'comment',
            id: 'c1',
            status: 'open',
            postedAt: '2026-01-01T00:00:00.000Z',
            postedBy: { displayName: 'Ann' },
            target: {},
            reactions: [],
            replies: 0,
            body: markdown ? { markdown: 'The **token** step.' } : { document: { object: 'document', nodes: [] } },
          }),
        );
      },
      async (url) => {
        const r = await docs(['comments', 'get', 's1', 'c1', '--api-url', url, '--token', 't']);
        expect(r.status).toBe(0);
        expect(r.stdout).toContain('The **token** step.');
        expect(r.stdout).not.toContain('undefined');
        expect(asked.some((a) => a.startsWith('/v1/spaces/s1/comments/c1?') && a.includes('format=markdown'))).toBe(true);
      },
    );
  });

  it('content pull asks each page for its markdown when listPages gives the tree only', async () => {
    const dir = join(tempDir(), 'out');
    await withServer(
      (req, res) => {
        const url = new URL(req.url!, 'http://x');
        res.setHeader('content-type', 'application/json');
        if (url.pathname === '/v1/spaces/s1/content/pages')
          return res.end(JSON.stringify({ pages: [{ id: 'p1', type: 'document', kind: 'sheet', title: 'Intro', slug: 'intro', path: 'intro', pages: [] }] }));
        if (url.pathname === '/v1/spaces/s1/content/files') return res.end(JSON.stringify({ items: [] }));
        if (url.pathname === '/v1/spaces/s1/content/page/p1' && url.searchParams.get('format') === 'markdown') {
          return res.end(JSON.stringify({ id: 'p1', type: 'document', title: 'Intro', path: 'intro', markdown: 'Hello from the page.\n' }));
        }
        res.statusCode = 404;
        res.end(JSON.stringify({ error: { code: 404, message: `no ${url.pathname}` } }));
      },
      async (url) => {
        const r = await docs(['content', 'pull', dir, '--space', 's1', '--api-url', url, '--token', 't']);
        expect(r.status, r.stderr).toBe(0);
        const { readdirSync, readFileSync } = await import('node:fs');
        const files = readdirSync(dir, { recursive: true })
          .map(String)
          .filter((f) => f.endsWith('.md') && f !== 'SUMMARY.md');
        expect(files.length).toBe(1);
        expect(readFileSync(join(dir, files[0]!), 'utf8')).toContain('Hello from the page.');
      },
    );
  });
});

describe('lock waits', () => {
  it('an in-process command waiting for another says so on stderr after 500 ms, then runs', async () => {
    const dir = tempDir();
    const held = tryLock(dir);
    expect(held.ok).toBe(true);
    const child = spawn(process.execPath, [BIN, 'orgs', 'list', '--json'], {
      env: { ...process.env, DOCS_DATA: dir, DOCS_API_URL: undefined, DOCS_TOKEN: undefined },
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const done = new Promise<number>((r) => child.on('close', (c) => r(c ?? -1)));
    // The message comes 500 ms after the child reaches the lock: wait for it (a loaded machine
    // may take seconds to start the child), bounded.
    const message = `waiting for pid ${process.pid} (another docs command) to release the data directory ${dir} ...`;
    for (let waited = 0; !stderr.includes(message) && waited < 20_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    expect(stderr).toContain(`waiting for pid ${process.pid} (another docs command) to release the data directory ${dir} ...`);
    if (held.ok) held.release();
    expect(await done).toBe(0);
  });
});

describe('--jq', () => {
  it('filters the JSON output through jq (strings raw); a bad expression is exit 2 naming the flag', async () => {
    const e = { ...env, DOCS_DATA: tempDir() };
    expect((await docs(['spaces', 'create', '--title', 'Jq one'], e)).status).toBe(0);
    const titles = await docs(['spaces', 'list', '--jq', '.items[].title'], e);
    expect([titles.status, titles.stdout]).toEqual([0, 'Jq one\n']);
    const count = await docs(['spaces', 'list', '--json', '--jq', '{n: .count}'], e);
    expect(JSON.parse(count.stdout)).toEqual({ n: 1 });
    const bad = await docs(['spaces', 'list', '--jq', '.items['], e);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^Error: --jq: jq: error: syntax error/);
    const missing = await docs(['orgs', 'get', 'nope', '--jq', '.id'], e);
    expect([missing.status, missing.stdout]).toEqual([3, '']);
  });
});
