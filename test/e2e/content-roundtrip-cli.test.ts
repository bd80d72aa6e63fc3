import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { ROUNDTRIP, writeTree } from '../helpers/docs-folder.js';
import { tempDir, startServer } from '../helpers/server.js';

/** Every file under dir (relative path → bytes). */
function readTree(dir: string, rel = ''): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  for (const name of readdirSync(join(dir, rel)).sort()) {
    const r = rel ? `${rel}/${name}` : name;
    if (statSync(join(dir, r)).isDirectory()) Object.assign(out, readTree(dir, r));
    else out[r] = readFileSync(join(dir, r));
  }
  return out;
}

async function scenario(env: Record<string, string>) {
  const run = async (...args: string[]) => {
    const r = await docs(args, env);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  const space = (await run('spaces', 'create', '--title', 'undici', '--json')).json.id as string;
  const src = writeTree(ROUNDTRIP);
  const pushed = (await run('content', 'push', src, '--space', space, '--merge', '--json')).json;
  expect(pushed).toMatchObject({ merged: true, added: 8, deleted: 0, files: 3 });

  // The table of contents: link text as titles, the headings as group pages.
  const tree = (await run('pages', 'list', space, '--json')).json;
  const pages = (tree.pages ?? tree) as any[];
  expect(pages.map((p) => [p.type, p.title, p.path])).toEqual([
    ['document', 'Introduction', 'README'],
    ['document', 'Install', 'install'],
    ['group', 'Guides', 'guides'],
    ['group', 'API reference', 'api'],
  ]);
  expect(pages[2].pages.map((p: any) => p.title)).toEqual(['Getting started', 'Proxies']);

  // Pull into a new folder: the same bytes, file for file.
  const out = join(tempDir('docs-roundtrip-pull-'), 'out');
  const pulled = await run('content', 'pull', out, '--space', space);
  expect(pulled.stderr).toBe('');
  const want = Object.fromEntries(Object.entries(ROUNDTRIP).map(([k, v]) => [k, Buffer.from(v)]));
  const got = readTree(out);
  expect(Object.keys(got).sort()).toEqual(Object.keys(want).sort());
  for (const k of Object.keys(want)) expect(got[k]!.toString('latin1'), k).toBe(want[k]!.toString('latin1'));
  expect((await run('content', 'push', out, '--space', space)).stdout).toBe(`No change: ${out} matches space ${space}.\n`);

  // A change in bytes only (trailing spaces in code, the final newline) is a change: sent, and back.
  writeFileSync(join(out, 'install.md'), '# Install\n\n```sh\nnpm i undici     \n```\n\nThen read [Getting started](guides/getting-started/README.md).\n');
  expect((await run('content', 'push', out, '--space', space, '--merge', '--json')).json).toMatchObject({ updated: 1, added: 0, deleted: 0 });
  const again = join(tempDir('docs-roundtrip-pull2-'), 'out');
  await run('content', 'pull', again, '--space', space);
  expect(readFileSync(join(again, 'install.md'), 'utf8')).toBe(readFileSync(join(out, 'install.md'), 'utf8'));

  // Edited in the space (not from a folder): pull says which page and why, and writes it from the space.
  const proxies = pages[2].pages[1].id as string;
  const open = (await run('api', 'POST', `/spaces/${space}/change-requests`, '-f', 'subject=app edit', '--json')).json;
  const body = join(tempDir('docs-roundtrip-body-'), 'body.json');
  writeFileSync(body, JSON.stringify({ changes: [{ operation: 'update_page', page: proxies, document: { markdown: 'Edited in the app.\n' } }] }));
  await run('api', 'POST', `/spaces/${space}/change-requests/${open.id}/content`, '--input', body);
  await run('api', 'POST', `/spaces/${space}/change-requests/${open.id}/merge`);
  const third = join(tempDir('docs-roundtrip-pull3-'), 'out');
  const r = await run('content', 'pull', third, '--space', space);
  expect(r.stderr).toContain('1 page was changed in the space since pushed from a folder');
  expect(r.stderr).toContain('guides/proxies.md: its content was edited in the space since it was pushed');
  expect(readFileSync(join(third, 'guides/proxies.md'), 'utf8')).toBe('# Proxies\n\nEdited in the app.\n');
  expect(readFileSync(join(third, 'README.md'), 'utf8')).toBe(ROUNDTRIP['README.md']);
}

describe('docs content push then pull: the same bytes, file for file', () => {
  it('in-process', { timeout: 120_000 }, async () => {
    await scenario({ DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_roundtrip' });
  });

  it('against a server (--api-url, --token)', { timeout: 120_000 }, async () => {
    const s = await startServer({ dataDir: tempDir(), token: 'gb_api_e2e_roundtrip_remote' });
    try {
      await scenario({ DOCS_API_URL: s.url, DOCS_TOKEN: 'gb_api_e2e_roundtrip_remote' });
    } finally {
      await s.stop();
    }
  });
});

describe('docs content push refuses a SUMMARY.md it cannot read as a table of contents (exit 2, naming the line, nothing sent)', () => {
  const env = () => ({ DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_roundtrip_bad' });
  const cases: [string, Record<string, string>, RegExp][] = [
    [
      'not a list',
      { 'SUMMARY.md': '# Table of contents\n\nJust some text.\n', 'a.md': '# A\n' },
      /SUMMARY\.md line 3 \(Just some text\.\): not a list of links/,
    ],
    [
      'a file twice',
      { 'SUMMARY.md': '* [A](a.md)\n\n## G\n\n* [Again](a.md)\n', 'a.md': '# A\n' },
      /SUMMARY\.md line 5 \(\* \[Again\]\(a\.md\)\): a\.md is already listed on line 1/,
    ],
    [
      'outside the folder',
      { 'SUMMARY.md': '* [A](a.md)\n* [X](../x.md)\n', 'a.md': '# A\n' },
      /SUMMARY\.md line 2 \(\* \[X\]\(\.\.\/x\.md\)\): \.\.\/x\.md is outside/,
    ],
    ['an entry that is not a link', { 'SUMMARY.md': '* [A](a.md)\n* just text\n', 'a.md': '# A\n' }, /SUMMARY\.md line 2 \(\* just text\): an entry is a link/],
  ];
  it.each(cases)('%s', { timeout: 60_000 }, async (_, files, message) => {
    const e = env();
    const space = (await docs(['spaces', 'create', '--title', 'Bad', '--json'], e)).json.id as string;
    const r = await docs(['content', 'push', writeTree(files), '--space', space], e);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
    expect((await docs(['cr', 'list', space, '--json'], e)).json.items ?? []).toEqual([]);
  });
});

describe('a SUMMARY.md group over pages in no folder of their own', () => {
  it('pushes its pages at the top level with a warning naming the heading (not refused: such folders pushed before groups existed)', {
    timeout: 60_000,
  }, async () => {
    const e = { DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_roundtrip_flat' };
    const space = (await docs(['spaces', 'create', '--title', 'Flat', '--json'], e)).json.id as string;
    const r = await docs(
      [
        'content',
        'push',
        writeTree({ 'SUMMARY.md': '# Table of contents\n\n## Guides\n\n* [A](a.md)\n* [B](b.md)\n', 'a.md': '# A\n', 'b.md': '# B\n' }),
        '--space',
        space,
        '--merge',
      ],
      e,
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/SUMMARY\.md line 3 \(## Guides\): group "Guides" not made: its pages \(a, b\) are not all in one folder of its own/);
    const pages = (await docs(['pages', 'list', space, '--json'], e)).json.pages;
    expect(pages.map((p: any) => [p.type, p.path])).toEqual([
      ['document', 'a'],
      ['document', 'b'],
    ]);
  });
});

/** The same docs under docs/ of a repository, with a .gitbook.yaml naming a root, a summary elsewhere, redirects and a key it does not know. */
function repository(): Record<string, string | Buffer> {
  const files: Record<string, string | Buffer> = {
    '.gitbook.yaml':
      'root: ./docs/\n\nstructure:\n  readme: README.md\n  summary: _toc/SUMMARY.md\n\nredirects:\n  old/proxy: guides/proxies.md\n\nlanguage: en\n',
    'package.json': '{"name":"undici"}\n',
  };
  for (const [k, v] of Object.entries(ROUNDTRIP)) {
    if (k === 'SUMMARY.md') files['docs/_toc/SUMMARY.md'] = (v as string).replace(/\]\(/g, '](../');
    else files[`docs/${k}`] = v;
  }
  return files;
}

async function repoScenario(env: Record<string, string>) {
  const run = async (...args: string[]) => {
    const r = await docs(args, env);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  const space = (await run('spaces', 'create', '--title', 'repo', '--json')).json.id as string;
  const files = repository();
  const src = writeTree(files);
  // content check (and push --check) read the pages under the root.
  expect((await run('content', 'check', src)).stdout).toMatch(/^No problems in .*docs \(/);
  const pushed = await run('content', 'push', src, '--space', space, '--merge', '--check', '--json');
  expect(pushed.stderr).toBe('Warning: .gitbook.yaml: unknown key language (known: root, structure.readme, structure.summary, redirects); ignored\n');
  // package.json is outside the root: not sent; .gitbook.yaml is kept in the space.
  expect(pushed.json).toMatchObject({ merged: true, added: 8, files: 4 });
  expect((await run('files', 'list', space, '--json')).json.items.map((f: any) => f.name).sort()).toEqual([
    '.gitbook.yaml',
    '.gitbook/assets/logo.png',
    'files/sample.pdf',
    'images/flow.png',
  ]);
  const out = join(tempDir('docs-repo-pull-'), 'out');
  const pulled = await run('content', 'pull', out, '--space', space);
  expect(pulled.stderr).toBe('Warning: .gitbook.yaml: unknown key language (known: root, structure.readme, structure.summary, redirects); ignored\n');
  const got = readTree(out);
  const want = Object.fromEntries(
    Object.entries(files)
      .filter(([k]) => k !== 'package.json')
      .map(([k, v]) => [k, Buffer.from(v).toString('latin1')]),
  );
  expect(Object.fromEntries(Object.entries(got).map(([k, v]) => [k, v.toString('latin1')]))).toEqual(want);
  // The redirects of .gitbook.yaml go to the sites publishing the space; none here, so they stay with it.
  expect((await run('content', 'push', out, '--space', space)).stdout).toBe(
    `No change: ${out} matches space ${space}.\n.gitbook.yaml: 1 redirect kept with the space (no site publishes it)\n`,
  );
}

describe('.gitbook.yaml: root, structure.summary, structure.readme, redirects kept with the space', () => {
  it('in-process', { timeout: 120_000 }, async () => {
    await repoScenario({ DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_repo' });
  });
  it('against a server (--api-url, --token)', { timeout: 120_000 }, async () => {
    const s = await startServer({ dataDir: tempDir(), token: 'gb_api_e2e_repo_remote' });
    try {
      await repoScenario({ DOCS_API_URL: s.url, DOCS_TOKEN: 'gb_api_e2e_repo_remote' });
    } finally {
      await s.stop();
    }
  });
  it('refuses a root outside the folder (exit 2, nothing sent)', { timeout: 60_000 }, async () => {
    const e = { DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_repo_bad' };
    const space = (await docs(['spaces', 'create', '--title', 'Bad', '--json'], e)).json.id as string;
    const r = await docs(['content', 'push', writeTree({ '.gitbook.yaml': 'root: ../elsewhere\n', 'a.md': '# A\n' }), '--space', space], e);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain('.gitbook.yaml: root ../elsewhere leads outside the folder; nothing was sent');
  });
});

/** Every file of a data directory by content (the lock aside), to show a dry run wrote nothing. */
function dataSnapshot(dir: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(readTree(dir))
      .filter(([k]) => !/lock/.test(k))
      .map(([k, v]) => [k, v.toString('base64')]),
  );
}

async function dryRunScenario(env: Record<string, string>, data?: string) {
  const run = async (...args: string[]) => {
    const r = await docs(args, env);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  const space = (await run('spaces', 'create', '--title', 'dry', '--json')).json.id as string;
  const src = writeTree(ROUNDTRIP);
  const state = async () => ({
    pages: (await run('pages', 'list', space, '--json')).json,
    crs: (await run('cr', 'list', space, '--json')).json.items,
    files: (await run('files', 'list', space, '--json')).json.items,
  });
  let before = await state();
  let bytes = data && dataSnapshot(data);
  const first = await run('content', 'push', src, '--space', space, '--merge', '--dry-run');
  expect(first.stdout).toBe(
    `Dry run, nothing changed: pushing ${src} would put into a new change request in space ${space}: 8 pages added, 0 updated, 0 deleted, 3 files uploaded.\n` +
      '  added    README.md (Introduction)\n  added    install.md (Install)\n  added    ## Guides (Guides)\n  added    guides/getting-started/README.md (Getting started)\n' +
      '  added    guides/getting-started/advanced.md (Advanced setup)\n  added    guides/proxies.md (Proxies)\n  added    ## API reference (API reference)\n  added    api/client.md (Client)\n' +
      '  upload   .gitbook/assets/logo.png\n  upload   files/sample.pdf\n  upload   images/flow.png\n' +
      `The change request would be merged into space ${space}.\n`,
  );
  expect((await run('content', 'push', src, '--space', space, '--merge', '--dry-run', '--json')).json).toMatchObject({
    dryRun: true,
    target: 'new',
    added: 8,
    files: 3,
    wouldMerge: true,
    pages: {
      added: ['README', 'install', 'guides', 'guides/getting-started', 'guides/getting-started/advanced', 'guides/proxies', 'api', 'api/client'],
      updated: [],
      deleted: [],
    },
  });
  expect(await state()).toEqual(before);
  if (data) expect(dataSnapshot(data)).toEqual(bytes);

  // After a real push: an edit, a deletion, a new page.
  await run('content', 'push', src, '--space', space, '--merge');
  writeFileSync(join(src, 'install.md'), '# Install\n\nWith pnpm too.\n');
  writeFileSync(join(src, 'faq.md'), '# FAQ\n');
  writeFileSync(
    join(src, 'SUMMARY.md'),
    (ROUNDTRIP['SUMMARY.md'] as string)
      .replace('* [Proxies](guides/proxies.md)\n', '')
      .replace('* [Install](install.md)\n', '* [Install](install.md)\n* [FAQ](faq.md)\n'),
  );
  before = await state();
  bytes = data && dataSnapshot(data);
  expect((await run('content', 'push', src, '--space', space, '--dry-run')).stdout).toBe(
    `Dry run, nothing changed: pushing ${src} would put into a new change request in space ${space}: 1 pages added, 2 updated, 1 deleted, 0 files uploaded.\n` +
      // getting-started links to the deleted page: its link no longer resolves, so it changes too.
      '  added    faq.md (FAQ)\n  updated  install.md\n  updated  guides/getting-started/README.md\n  deleted  guides/proxies\n',
  );
  expect(await state()).toEqual(before);
  if (data) expect(dataSnapshot(data)).toEqual(bytes);

  // Exit codes as the real push: a --merge that would conflict is 5, and nothing changes.
  await run('content', 'push', src, '--space', space); // change request left open, marked as this folder's
  const installId = (before.pages.pages as any[]).find((p) => p.path === 'install').id;
  const edit = (await run('api', 'POST', `/spaces/${space}/change-requests`, '-f', 'subject=meanwhile', '--json')).json;
  const body = join(tempDir('docs-dry-body-'), 'body.json');
  writeFileSync(body, JSON.stringify({ changes: [{ operation: 'update_page', page: installId, document: { markdown: '# Install\n\nWith yarn.\n' } }] }));
  await run('api', 'POST', `/spaces/${space}/change-requests/${edit.id}/content`, '--input', body);
  await run('api', 'POST', `/spaces/${space}/change-requests/${edit.id}/merge`);
  before = await state();
  bytes = data && dataSnapshot(data);
  const clash = await docs(['content', 'push', src, '--space', space, '--merge', '--dry-run'], env);
  expect(clash.status, clash.stderr).toBe(5);
  expect(clash.stderr).toContain('Dry run: the change request would conflict with changes made to space');
  expect(clash.stderr).toContain('Install (install)');
  expect(await state()).toEqual(before);
  if (data) expect(dataSnapshot(data)).toEqual(bytes);
  // The same push for real: exit 5 too.
  expect((await docs(['content', 'push', src, '--space', space, '--merge'], env)).status).toBe(5);
}

describe('docs content push --dry-run: what would change, nothing changed, exit codes as the real push', () => {
  it('in-process', { timeout: 120_000 }, async () => {
    const data = tempDir();
    await dryRunScenario({ DOCS_DATA: data, DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_dry_push' }, data);
  });
  it('against a server (--api-url, --token)', { timeout: 120_000 }, async () => {
    const s = await startServer({ dataDir: tempDir(), token: 'gb_api_e2e_dry_push_remote' });
    try {
      await dryRunScenario({ DOCS_API_URL: s.url, DOCS_TOKEN: 'gb_api_e2e_dry_push_remote' });
    } finally {
      await s.stop();
    }
  });
});

describe('a group that becomes a page (and back) is replaced, with its subpages', () => {
  it('in-process', { timeout: 120_000 }, async () => {
    const env = { DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_group_swap' };
    const run = async (...args: string[]) => {
      const r = await docs(args, env);
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      return r;
    };
    const space = (await run('spaces', 'create', '--title', 'swap', '--json')).json.id as string;
    const asGroup = { 'SUMMARY.md': '# Table of contents\n\n## Guides\n\n* [A](guides/a.md)\n', 'guides/a.md': '# A\n\nText.\n' };
    const asPage = {
      'SUMMARY.md': '# Table of contents\n\n* [Guides](guides/README.md)\n  * [A](guides/a.md)\n',
      'guides/README.md': '# Guides\n\nAll guides.\n',
      'guides/a.md': '# A\n\nText.\n',
    };
    const shape = async () =>
      ((await run('pages', 'list', space, '--json')).json.pages as any[]).map((p) => [p.type, p.title, p.pages.map((c: any) => c.title)]);
    await run('content', 'push', writeTree(asGroup), '--space', space, '--merge');
    expect(await shape()).toEqual([['group', 'Guides', ['A']]]);
    expect((await run('content', 'push', writeTree(asPage), '--space', space, '--merge', '--json')).json).toMatchObject({ added: 2, deleted: 2 });
    expect(await shape()).toEqual([['document', 'Guides', ['A']]]);
    await run('content', 'push', writeTree(asGroup), '--space', space, '--merge');
    expect(await shape()).toEqual([['group', 'Guides', ['A']]]);
  });
});
