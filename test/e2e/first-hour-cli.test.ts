import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docs, hasScript, inTerminal } from '../helpers/cli.js';
import { withServer } from '../helpers/loopback.js';
import { tempDir, startServer } from '../helpers/server.js';

// Issue 34, the CLI's first hour: one line per change, lists alike, things named rather than
// ids, merge conflicts resolved in the terminal. Each through the built CLI as a script (a pipe)
// and, where it differs, as a person (a pseudo-terminal).
const ESC = '\u001b[';

function world() {
  const env = { DOCS_DATA: tempDir('docs-first-hour-') };
  const run = async (...args: string[]) => {
    const r = await docs(args, env);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  return { env, run };
}

describe('one line per change', () => {
  it('spaces create|move|transfer|restore, members update, sites publish: one line naming what changed and its URL; --json the whole body', async () => {
    const { run } = world();
    const org = (await run('orgs', 'list', '--json')).json.items[0].id;
    const created = await run('spaces', 'create', '--title', 'Guides');
    const [, id] = /^Created space "Guides" \((\w+)\) (http:\S+)\n$/.exec(created.stdout) ?? [];
    expect(id, created.stdout).toBeTruthy();
    expect(created.stdout).toBe(`Created space "Guides" (${id}) ${(await run('spaces', 'get', id!, '--json')).json.urls.app}\n`);
    // --json unchanged: the API body.
    const json = (await run('spaces', 'create', '--title', 'Other', '--json')).json;
    expect(json).toMatchObject({ object: 'space', title: 'Other', permissions: { edit: true } });

    const collection = (await run('collections', 'create', '--title', 'Shelf', '--json')).json.id;
    expect((await run('spaces', 'move', id!, '--parent', collection)).stdout).toMatch(
      new RegExp(`^Moved space "Guides" \\(${id}\\): parent ${collection}; http://\\S+/s/${id}\\n$`),
    );
    expect((await run('spaces', 'update', id!, '--title', 'Handbook')).stdout).toMatch(new RegExp(`^Updated space "Handbook" \\(${id}\\) http://\\S+\\n$`));

    const user = (await run('members', 'list', '--json')).json.items[0].user;
    const member = await run('members', 'update', user.id, '--role', 'admin');
    expect(member.stdout).toBe(`Updated member "${user.displayName}" (${user.id}): role admin\n`);
    expect(member.stdout.split('\n')).toHaveLength(2);

    await run('spaces', 'delete', json.id, '--yes');
    expect((await run('spaces', 'restore', json.id)).stdout).toMatch(new RegExp(`^Restored space "Other" \\(${json.id}\\) http://\\S+\\n$`));
    const org2 = (await run('orgs', 'create', '--title', 'Second', '--json')).json.id;
    expect((await run('spaces', 'transfer', json.id, '--organization', org2)).stdout).toMatch(
      new RegExp(`^Transferred space "Other" \\(${json.id}\\): organization ${org2}; http://\\S+/o/${org2}/s/${json.id}\\n$`),
    );

    // sites publish (through the same mechanism): where it published.
    const site = (await run('sites', 'create', '--title', 'Handbook Site', '--spaces', id!, '--org', org, '--json')).json;
    const published = await run('sites', 'publish', site.id, '--org', org);
    expect(published.stdout).toMatch(new RegExp(`^Published site "Handbook Site" \\(${site.id}\\) http://\\S+/sites/\\w+/handbook-site\\n$`));
    expect(published.stdout).toContain((await run('sites', 'get', site.id, '--org', org, '--json')).json.urls.published);
  }, 60_000);

  it.skipIf(!hasScript)(
    'on a terminal: a green ✓ first; none with NO_COLOR',
    async () => {
      const { env, run } = world();
      await run('orgs', 'list'); // the data directory made (its notice is not the line under test)
      const out = await inTerminal(['$D spaces create --title Tty', 'echo :::', 'NO_COLOR= $D spaces create --title Plain'], env);
      const [tty, plain] = out.split(':::\n');
      expect(tty).toMatch(new RegExp(`^${ESC.replace('[', '\\[')}32m✓${ESC.replace('[', '\\[')}39m Created space "Tty" \\(\\w+\\) http://`));
      expect(plain).toMatch(/^Created space "Plain" \(\w+\) http:\/\/\S+\n$/);
    },
    60_000,
  );
});

describe('lists behave alike', () => {
  it('pages list, comments list and cr changes print TSV through a pipe; cr changes --all, its hint on stderr; cr list --status all', async () => {
    const { env, run } = world();
    const space = (await run('spaces', 'create', '--title', 'Lists', '--json')).json.id;
    const src = join(tempDir('docs-first-hour-src-'), 'src');
    mkdirSync(join(src, 'guide'), { recursive: true });
    writeFileSync(join(src, 'README.md'), '# Home\n\nWelcome.\n');
    writeFileSync(join(src, 'guide', 'README.md'), '# Guide\n\nText.\n');
    writeFileSync(join(src, 'guide', 'setup.md'), '# Setup\n\nSteps.\n');
    await run('content', 'push', src, '--space', space, '--merge');
    const pages = (await run('pages', 'list', space, '--json')).json.pages;
    const setup = pages.find((p: any) => p.title === 'Guide').pages[0];
    expect((await run('pages', 'list', space)).stdout).toBe(
      [`${pages[0].id}\tHome\tREADME\tdocument`, `${pages[1].id}\tGuide\tguide\tdocument`, `${setup.id}\tSetup\tguide/setup\tdocument`].join('\n') + '\n',
    );

    const comment = (await run('comments', 'add', space, 'Looks good\nsecond line', '--json')).json;
    const comments = (await run('comments', 'list', space)).stdout;
    expect(comments).toBe(`${comment.id}\t${comment.postedBy.displayName}\t${comment.postedAt}\topen\t0\tLooks good\n`);

    // A change request of 12 changes: the first 10, "more" on stderr; --all: every one.
    for (let i = 1; i <= 12; i++) writeFileSync(join(src, `p${String(i).padStart(2, '0')}.md`), `# Page ${i}\n`);
    const cr = String((await run('content', 'push', src, '--space', space, '--json')).json.number);
    const some = await run('cr', 'changes', space, cr);
    expect(some.stdout.trim().split('\n')).toHaveLength(10);
    expect(some.stdout.split('\n')[0]).toMatch(/^page_created\tPage 1\tp01\t$/);
    expect(some.stderr).toBe('Showing 10 of 12. More: --limit 12 (or --all)\n');
    const all = await run('cr', 'changes', space, cr, '--all');
    expect([all.stdout.trim().split('\n').length, all.stderr]).toEqual([12, '']);

    // --status all: open, merged and archived together; the API's own statuses still one at a time.
    const merged = (await run('cr', 'list', space, '--status', 'merged', '--json')).json.items.map((c: any) => c.number);
    const archived = (await run('cr', 'create', space, '--subject', 'Dropped', '--json')).json.number;
    expect((await docs(['cr', 'edit', space, String(archived), '--status', 'archived'], env)).stderr).toBe(
      `Error: Archive change request #${archived} "Dropped" of space "Lists" (${space}): not confirmed; pass --yes to confirm (no terminal to ask on)\n`,
    );
    await run('cr', 'edit', space, String(archived), '--status', 'archived', '--yes');
    const every = (await run('cr', 'list', space, '--status', 'all', '--json')).json;
    expect(every.items.map((c: any) => c.number).sort()).toEqual([...merged, Number(cr), archived].sort());
    expect((await run('cr', 'list', space, '--status', 'all')).stdout.trim().split('\n')).toHaveLength(every.items.length);
    expect((await run('cr', 'list', space, '--json')).json.items.map((c: any) => c.number)).toEqual([Number(cr)]);
    expect((await run('cr', 'list-org', '--status', 'all', '--json')).json.items.map((c: any) => c.number).sort()).toEqual(
      every.items.map((c: any) => c.number).sort(),
    );
    const page = await docs(['cr', 'list', space, '--status', 'all', '--page', 'x'], env);
    expect([page.status, page.stderr]).toEqual([
      2,
      'Error: --page does not go with --status all, which lists every page of every status (see docs cr list --help)\n',
    ]);
  }, 90_000);
});

describe('things named, not ids', () => {
  it('confirmations name the thing (and its organization, and what goes with it)', async () => {
    const { env, run } = world();
    const collection = (await run('collections', 'create', '--title', 'Guides', '--json')).json.id;
    await run('spaces', 'create', '--title', 'One', '--parent', collection);
    await run('spaces', 'create', '--title', 'Two', '--parent', collection);
    const refused = await docs(['collections', 'delete', collection], env);
    expect([refused.status, refused.stderr]).toEqual([
      2,
      `Error: Delete collection "Guides" (${collection}) in "My Organization" with 2 spaces: not confirmed; pass --yes to confirm (no terminal to ask on)\n`,
    ]);
    const site = (await run('sites', 'create', '--title', 'Docs Site', '--json')).json.id;
    expect((await docs(['sites', 'delete', site], env)).stderr).toContain(`Error: Delete site "Docs Site" (${site}) with its sections`);
    // Not readable (no such thing): the id, and the delete itself says what is wrong.
    expect((await docs(['spaces', 'delete', 'noSuchSpace'], env)).stderr).toContain('Error: Delete space noSuchSpace: not confirmed');
  }, 60_000);

  it('invites links create prints how to join with it; sites open without a server says how to start one', async () => {
    const { env, run } = world();
    const org = (await run('orgs', 'list', '--json')).json.items[0].id;
    const link = await run('invites', 'links', 'create', '--role', 'edit');
    expect(link.stdout).toMatch(new RegExp(`^Created invite link (\\w+) \\(role edit\\)\\. To join, share: docs invites accept ${org} \\1\\n$`));

    const space = (await run('spaces', 'create', '--title', 'Open', '--json')).json.id;
    const site = (await run('sites', 'create', '--title', 'Open Site', '--spaces', space, '--json')).json.id;
    await run('sites', 'publish', site);
    // The data directory with no server holding it: the address is printed, with how to serve it.
    const r = await docs(['sites', 'open', site], env);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^http:\/\/127\.0\.0\.1:7780\/sites\/\w+\/open-site\n$/);
    expect(r.stderr).toBe(
      `Nothing serves http://127.0.0.1:7780 now: start the server with \`docs serve\`, or serve this site alone with \`docs sites preview ${site}\` (it prints the address).\n`,
    );
  }, 60_000);
});

/** A one-line clash between change request and space: shown with markers, resolved by one edit and one push. */
async function clash(env: Record<string, string>) {
  const run = async (...args: string[]) => {
    const r = await docs(args, env);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  const space = (await run('spaces', 'create', '--title', 'Clash', '--json')).json.id;
  const root = tempDir('docs-first-hour-clash-');
  const [mine, theirs] = [join(root, 'mine'), join(root, 'theirs')];
  mkdirSync(mine);
  mkdirSync(theirs);
  const text = (line: string) => `# Guide\n\nLine one.\n${line}\nLine three.\n`;
  writeFileSync(join(mine, 'guide.md'), text('Line two.'));
  await run('content', 'push', mine, '--space', space, '--merge');
  writeFileSync(join(mine, 'guide.md'), text('Line two, as the change request says.'));
  const cr = String((await run('content', 'push', mine, '--space', space, '--json')).json.number);
  writeFileSync(join(theirs, 'guide.md'), text('Line two, as the space says.'));
  await run('content', 'push', theirs, '--space', space, '--merge');

  const merge = await docs(['cr', 'merge', space, cr], env);
  expect(merge.status).toBe(5);
  expect(merge.stdout).toContain(
    [
      'Line one.',
      '<<<<<<< space',
      'Line two, as the space says.',
      '=======',
      'Line two, as the change request says.',
      `>>>>>>> change request #${cr}`,
      'Line three.',
    ].join('\n'),
  );
  expect(merge.stderr).toContain(`docs cr resolve ${space} ${cr} ./cr-${cr}`);
  if (hasScript) {
    // On a terminal: the space's side red, the change request's green (as cr diff colors old and new).
    const tty = await inTerminal([`$D cr merge ${space} ${cr}; echo "exit=$?"`], env, 120);
    expect(tty).toContain(
      `${ESC}31m<<<<<<< space${ESC}39m\n${ESC}31mLine two, as the space says.${ESC}39m\n=======\n${ESC}32mLine two, as the change request says.${ESC}39m\n${ESC}32m>>>>>>> change request #${cr}${ESC}39m`,
    );
    expect(tty).toContain('exit=5');
  }
  // --json: the API's answer as it is.
  expect((await docs(['cr', 'merge', space, cr, '--json'], env)).json).toMatchObject({
    result: 'conflicts',
    conflicts: [{ kind: 'content', title: 'Guide', path: 'guide' }],
  });

  const dir = join(root, 'resolve');
  const resolved = await run('cr', 'resolve', space, cr, dir);
  expect(resolved.stdout).toContain(`${join(dir, 'guide.md')}  (Guide: 1 clash)`);
  expect(resolved.stdout).toContain(`docs content push ${dir} --space ${space} --change-request ${cr} --merge`);
  const file = readFileSync(join(dir, 'guide.md'), 'utf8');
  expect(file).toBe(
    `# Guide\n\nLine one.\n<<<<<<< space\nLine two, as the space says.\n=======\nLine two, as the change request says.\n>>>>>>> change request #${cr}\nLine three.\n`,
  );

  // One edit, one push.
  writeFileSync(join(dir, 'guide.md'), file.replace(/<<<<<<< space\n[^]*?>>>>>>> change request #\d+\n/, 'Line two, as both say.\n'));
  const push = await run('content', 'push', dir, '--space', space, '--change-request', cr, '--merge');
  expect(push.stdout).toContain('Merged into space');
  const page = (await run('pages', 'list', space, '--json')).json.pages[0];
  expect((await run('api', 'GET', `/spaces/${space}/content/page/${page.id}`, '--jq', '.markdown')).stdout).toBe(
    'Line one.\nLine two, as both say.\nLine three.\n',
  );
}

describe('merge conflicts in the terminal', () => {
  it('cr merge shows the clashing lines with markers; cr resolve, one edit and one push merge it', async () => await clash(world().env), 90_000);

  it('the same against a server (--api-url, --token)', async () => {
    const s = await startServer({ dataDir: tempDir(), token: 'gb_api_first_hour_remote' });
    try {
      await clash({ DOCS_API_URL: s.url, DOCS_TOKEN: 'gb_api_first_hour_remote' });
    } finally {
      await s.stop();
    }
  }, 90_000);

  it('cr resolve writes nothing outside DIR when a server names a page "../escape"', async () => {
    const s = await startServer({ dataDir: tempDir(), token: 'gb_api_first_hour_hostile' });
    try {
      const env = { DOCS_API_URL: s.url, DOCS_TOKEN: 'gb_api_first_hour_hostile' };
      const run = async (...args: string[]) => {
        const r = await docs(args, env);
        expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
        return r;
      };
      const space = (await run('spaces', 'create', '--title', 'Hostile', '--json')).json.id;
      const root = tempDir('docs-first-hour-hostile-');
      const [mine, theirs] = [join(root, 'mine'), join(root, 'theirs')];
      mkdirSync(mine);
      mkdirSync(theirs);
      writeFileSync(join(mine, 'guide.md'), '# Guide\n\nOne.\n');
      await run('content', 'push', mine, '--space', space, '--merge');
      writeFileSync(join(mine, 'guide.md'), '# Guide\n\nOne, mine.\n');
      const cr = String((await run('content', 'push', mine, '--space', space, '--json')).json.number);
      writeFileSync(join(theirs, 'guide.md'), '# Guide\n\nOne, theirs.\n');
      await run('content', 'push', theirs, '--space', space, '--merge');
      // A proxy that answers as the server does, but names the change request's page "../escape".
      await withServer(
        async (req, res) => {
          const chunks: Buffer[] = [];
          for await (const c of req) chunks.push(c as Buffer);
          const headers: Record<string, string> = { authorization: String(req.headers.authorization ?? '') };
          if (req.headers['content-type']) headers['content-type'] = String(req.headers['content-type']);
          const upstream = await fetch(s.url + req.url, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
          let text = await upstream.text();
          if (/\/change-requests\/\d+\/content\/pages/.test(req.url ?? '')) text = text.replace(/"path":"guide"/g, '"path":"../escape"');
          res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' }).end(text);
        },
        async (url) => {
          const dir = join(root, 'out', 'cr');
          const r = await docs(['cr', 'resolve', space, cr, dir, '--api-url', url, '--token', env.DOCS_TOKEN]);
          expect([r.status, r.stderr]).toEqual([2, `Error: the server named a page or file outside ${dir}: "../escape.md"; nothing was written\n`]);
          expect(existsSync(join(root, 'out', 'escape.md'))).toBe(false);
          expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
        },
      );
    } finally {
      await s.stop();
    }
  }, 90_000);

  it('cr resolve with nothing clashing says so; a non-empty folder is refused before anything changes', async () => {
    const { env, run } = world();
    const space = (await run('spaces', 'create', '--title', 'Calm', '--json')).json.id;
    const cr = String((await run('cr', 'create', space, '--subject', 'Nothing', '--json')).json.number);
    const dir = tempDir('docs-first-hour-full-');
    writeFileSync(join(dir, 'x.md'), '# X\n');
    const full = await docs(['cr', 'resolve', space, cr, dir], env);
    expect([full.status, full.stderr]).toEqual([2, `Error: DIR: ${dir} is not empty (use --force to write into it)\n`]);
    expect((await run('cr', 'resolve', space, cr, join(dir, 'new'))).stdout).toMatch(
      new RegExp(`^No conflict: change request #${cr} is up to date with space ${space}`),
    );
  }, 60_000);
});
