import { readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docs, spawnServe } from '../helpers/cli.js';
import { writeTree } from '../helpers/docs-folder.js';
import { tempDir } from '../helpers/server.js';

// docs content push|pull DIR --site SITE: a whole site from one repository (gitbook-docs.yaml),
// docs/manual/docs-as-code.md#a-whole-site-from-one-repository.

const SITE_YAML = `# the site of the repository
site:
  structure:
    - type: section-group
      key: products
      title: Products
      children:
        - type: section
          key: api
          title: API
          path: api
          children:
            - type: space
              key: api-en
              title: API
              path: en
              default: true
              content:
                directory: ./api/en
                language: en
            - type: space
              key: api-fr
              title: API (français)
              path: fr
              content:
                directory: ./api/fr
                language: fr
    - type: section
      key: guides
      title: Guides
      path: guides
      children:
        - type: space
          key: handbook
          title: Guides
          content:
            directory: ./guides
`;

const REPO: Record<string, string> = {
  'gitbook-docs.yaml': SITE_YAML,
  'api/en/README.md': '# API\n\nSee [the client](client.md).\n',
  'api/en/client.md': '# Client\n\nOptions.  \n',
  'api/en/SUMMARY.md': '# Table of contents\n\n* [API](README.md)\n* [Client](client.md)\n',
  'api/fr/README.md': '# API\n\nVoir [le client](client.md).\n',
  'api/fr/client.md': '# Client\n\nOptions.\n',
  'api/fr/SUMMARY.md': '# Table of contents\n\n* [API](README.md)\n* [Client](client.md)\n',
  'guides/README.md': '# Guides\n\nStart here.',
  'guides/SUMMARY.md': '# Table of contents\n\n* [Guides](README.md)\n',
  'package.json': '{}\n',
};

function readTree(dir: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(join(dir, rel)).sort()) {
    const r = rel ? `${rel}/${name}` : name;
    if (statSync(join(dir, r)).isDirectory()) Object.assign(out, readTree(dir, r));
    else out[r] = readFileSync(join(dir, r), 'latin1');
  }
  return out;
}

async function scenario(env: Record<string, string>) {
  const run = async (...args: string[]) => {
    const r = await docs(args, env);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  const site = (await run('sites', 'create', '--title', 'Docs', '--json')).json.id as string;
  const repo = writeTree(REPO);

  // Dry run first: the structure it would make, the pages it would add; nothing changes.
  const dry = (await run('content', 'push', repo, '--site', site, '--dry-run', '--json')).json;
  expect(dry.dryRun).toBe(true);
  expect(dry.structure).toContain('create section group products (Products)');
  expect(dry.spaces.map((s: any) => [s.key, s.created, s.result.added])).toEqual([
    ['api-en', true, 2],
    ['api-fr', true, 2],
    ['handbook', true, 1],
  ]);
  expect((await run('sites', 'structure', site, '--json')).json.structure).toEqual([]);

  // The push: the site's structure, then each space's content, one merged change request each.
  const first = await run('content', 'push', repo, '--site', site);
  expect(first.stdout).toMatch(/Space api-en \(api\/en\): 2 pages added, 0 updated, 0 deleted, 0 files uploaded, merged/);
  expect(first.stdout).toMatch(/Space handbook \(guides\): 1 pages added/);
  const tree = (await run('sites', 'structure', site, '--json')).json;
  expect(tree.type).toBe('sections');
  const [group, guides] = tree.structure;
  expect([group.object, group.title, guides.object, guides.title, guides.path]).toEqual(['site-section-group', 'Products', 'site-section', 'Guides', 'guides']);
  const api = group.children[0];
  expect([api.title, api.path]).toEqual(['API', 'api']);
  expect(api.siteSpaces.map((s: any) => [s.title, s.path, s.default, s.space.language])).toEqual([
    ['API', 'en', true, 'en'],
    ['API (français)', 'fr', false, 'fr'],
  ]);
  const enSpace = api.siteSpaces[0].space.id as string;

  // Again: nothing changes (keys found; each space "No change").
  const again = (await run('content', 'push', repo, '--site', site, '--json')).json;
  expect(again.structure).toEqual([]);
  expect(again.spaces.map((s: any) => [s.key, s.spaceId === null, s.created, s.result.changeRequest])).toEqual([
    ['api-en', false, false, null],
    ['api-fr', false, false, null],
    ['handbook', false, false, null],
  ]);

  // A title renamed (same key: the same space), one page changed: one change, that space only.
  writeFileSync(join(repo, 'gitbook-docs.yaml'), SITE_YAML.replace('title: Guides\n      path: guides', 'title: Handbook\n      path: guides'));
  writeFileSync(join(repo, 'api/en/client.md'), '# Client\n\nOptions, all of them.\n');
  const third = (await run('content', 'push', repo, '--site', site, '--json')).json;
  expect(third.structure).toEqual(['update section guides: title']);
  expect(third.spaces.map((s: any) => [s.key, s.result.updated ?? 0, s.result.merged])).toEqual([
    ['api-en', 1, true],
    ['api-fr', 0, false],
    ['handbook', 0, false],
  ]);
  expect(third.spaces[0].spaceId).toBe(enSpace);

  // Pull of the site: gitbook-docs.yaml and every folder, byte for byte.
  const out = join(tempDir('docs-site-pull-'), 'out');
  const pulled = await run('content', 'pull', out, '--site', site);
  expect(pulled.stdout).toContain('Space api-en: 2 pages and 0 files');
  const want = readTree(repo);
  delete want['package.json'];
  expect(readTree(out)).toEqual(want);
}

describe('docs content push|pull --site: a whole site from one repository', () => {
  it('in-process', { timeout: 120_000 }, async () => {
    await scenario({ DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_site_push' });
  });

  it('against a server (--api-url, --token)', { timeout: 120_000 }, async () => {
    const s = await spawnServe(['--data', tempDir(), '--quiet'], { DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_site_push_remote' });
    try {
      await scenario({ DOCS_API_URL: s.url, DOCS_TOKEN: 'gb_api_e2e_site_push_remote' });
    } finally {
      s.child.kill('SIGTERM');
      await s.exited;
    }
  });
});

describe('docs content push --site refuses a gitbook-docs.yaml it cannot map (exit 2, naming the line, nothing sent)', () => {
  const space = (key: string, dir: string, path = key) =>
    `    - type: space\n      key: ${key}\n      title: ${key}\n      path: ${path}\n      content:\n        directory: ${dir}\n`;
  const cases: [string, string, RegExp][] = [
    ['a key twice', `site:\n  structure:\n${space('a', './a')}${space('a', './b', 'b')}`, /gitbook-docs\.yaml line 10: key a is already used on line 4/],
    [
      'a folder twice',
      `site:\n  structure:\n${space('a', './a')}${space('b', './a')}`,
      /line 14: content\.directory a is already the folder of the space on line 8/,
    ],
    ['a path twice', `site:\n  structure:\n${space('a', './a', 'p')}${space('b', './b', 'p')}`, /line 12: path p is already used on line 6/],
    [
      'a folder outside the repository',
      `site:\n  structure:\n${space('a', '../elsewhere')}`,
      /line 8: content\.directory \.\.\/elsewhere leads outside the repository/,
    ],
    ['a folder that is not there', `site:\n  structure:\n${space('a', './nowhere')}`, /line 8: content\.directory \.\/nowhere is not a folder/],
    [
      'spaces and sections mixed',
      `site:\n  structure:\n${space('a', './a')}    - type: section\n      key: s\n      title: S\n      children:\n${space('b', './b').replace(/^/gm, '    ')}`,
      /not both/,
    ],
    ['no key', `site:\n  structure:\n    - type: space\n      title: A\n      content:\n        directory: ./a\n`, /line 3: key: required/],
  ];
  for (const [name, yaml, want] of cases) {
    it(name, { timeout: 60_000 }, async () => {
      const env = { DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_site_bad' };
      const site = (await docs(['sites', 'create', '--title', 'Docs', '--json'], env)).json.id as string;
      const repo = writeTree({ 'gitbook-docs.yaml': yaml, 'a/README.md': '# A\n', 'b/README.md': '# B\n' });
      const r = await docs(['content', 'push', repo, '--site', site], env);
      expect(r.stderr).toMatch(want);
      expect(r.status).toBe(2);
      expect((await docs(['sites', 'structure', site, '--json'], env)).json.structure).toEqual([]);
      expect((await docs(['spaces', 'list', '--json'], env)).json.items ?? []).toHaveLength(0);
    });
  }

  it('a folder leading out through a symbolic link', { timeout: 60_000 }, async () => {
    const env = { DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_site_bad' };
    const site = (await docs(['sites', 'create', '--title', 'Docs', '--json'], env)).json.id as string;
    const repo = writeTree({ 'gitbook-docs.yaml': `site:\n  structure:\n${space('a', './a')}` });
    symlinkSync(writeTree({ 'README.md': '# Outside\n' }), join(repo, 'a'));
    const r = await docs(['content', 'push', repo, '--site', site], env);
    expect(r.stderr).toMatch(/content\.directory \.\/a leads outside the repository \(through a symbolic link\)/);
    expect(r.status).toBe(2);
  });

  it("a space's folder that push would refuse (SUMMARY.md lists a file twice): exit 2 naming the space and the line, nothing created", {
    timeout: 60_000,
  }, async () => {
    const env = { DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_site_bad' };
    const site = (await docs(['sites', 'create', '--title', 'Docs', '--json'], env)).json.id as string;
    const repo = writeTree({
      'gitbook-docs.yaml': `site:\n  structure:\n${space('a', './a')}${space('b', './b')}`,
      'a/README.md': '# A\n',
      'b/README.md': '# B\n',
      'b/SUMMARY.md': '* [B](README.md)\n* [Again](README.md)\n',
    });
    const r = await docs(['content', 'push', repo, '--site', site], env);
    expect(r.stderr).toMatch(/space b \(b\): SUMMARY\.md line 2 .*README\.md is already listed on line 1/);
    expect(r.status).toBe(2);
    expect((await docs(['sites', 'structure', site, '--json'], env)).json.structure).toEqual([]);
    expect((await docs(['spaces', 'list', '--json'], env)).json.items ?? []).toHaveLength(0);
  });

  it('unknown keys: a warning naming them and their line', { timeout: 60_000 }, async () => {
    const env = { DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_site_warn' };
    const site = (await docs(['sites', 'create', '--title', 'Docs', '--json'], env)).json.id as string;
    const repo = writeTree({ 'gitbook-docs.yaml': `site:\n  theme: dark\n  structure:\n${space('a', './a')}`, 'a/README.md': '# A\n' });
    const r = await docs(['content', 'push', repo, '--site', site, '--dry-run'], env);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('Warning: gitbook-docs.yaml line 2: unknown key site.theme (known: title, structure); ignored');
  });
});
