import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { writeTree } from '../helpers/docs-folder.js';
import { tempDir, startServer } from '../helpers/server.js';

// docs content push --site moves a known item (same key) the file puts in another container: the
// same site space, section or section group (its id, so its published URL and history), never made
// again (docs/manual/docs-as-code.md#moving-items-between-containers).

const space = (key: string, dir: string, extra = '', indent = '            ') =>
  `${indent}- type: space\n${indent}  key: ${key}\n${indent}  title: ${key}\n${extra ? `${indent}  ${extra}\n` : ''}${indent}  content: { directory: ./${dir} }\n`;

const BEFORE = `site:
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
${space('api-en', 'api/en', 'path: en')}${space('api-fr', 'api/fr', 'path: fr')}    - type: section
      key: guides
      title: Guides
      path: guides
      children:
${space('handbook', 'guides', '', '        ')}    - type: section-group
      key: tools
      title: Tools
      children:
        - type: section
          key: cli
          title: CLI
          path: cli
          children:
${space('cli-docs', 'cli')}`;

// api leaves the group for the top (first), guides goes into products, api-fr from api to guides,
// the group tools into products (after guides).
const AFTER = `site:
  structure:
    - type: section
      key: api
      title: API
      path: api
      children:
${space('api-en', 'api/en', 'path: en', '        ')}    - type: section-group
      key: products
      title: Products
      children:
        - type: section
          key: guides
          title: Guides
          path: guides
          children:
${space('handbook', 'guides')}${space('api-fr', 'api/fr', 'path: fr')}        - type: section-group
          key: tools
          title: Tools
          children:
            - type: section
              key: cli
              title: CLI
              path: cli
              children:
${space('cli-docs', 'cli', '', '                ')}`;

const REPO = {
  'gitbook-docs.yaml': BEFORE,
  'api/en/README.md': '# API\n',
  'api/fr/README.md': '# API (fr)\n',
  'guides/README.md': '# Guides\n',
  'cli/README.md': '# CLI\n',
};

/** The site's structure as [kind, title or key, children], with each item's id by title. */
function shapeOf(structure: any[], ids: Record<string, string>): unknown[] {
  return structure.map((n) => {
    ids[n.title] = n.id;
    if (n.object === 'site-space') return ['space', n.title];
    return [n.object === 'site-section' ? 'section' : 'group', n.title, shapeOf(n.children ?? n.siteSpaces ?? [], ids)];
  });
}

async function scenario(env: Record<string, string>) {
  const run = async (...args: string[]) => {
    const r = await docs(args, env);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  const site = (await run('sites', 'create', '--title', 'Docs', '--json')).json.id as string;
  const repo = writeTree(REPO);
  await run('content', 'push', repo, '--site', site);
  const before: Record<string, string> = {};
  expect(shapeOf((await run('sites', 'structure', site, '--json')).json.structure, before)).toEqual([
    [
      'group',
      'Products',
      [
        [
          'section',
          'API',
          [
            ['space', 'api-en'],
            ['space', 'api-fr'],
          ],
        ],
      ],
    ],
    ['section', 'Guides', [['space', 'handbook']]],
    ['group', 'Tools', [['section', 'CLI', [['space', 'cli-docs']]]]],
  ]);

  writeFileSync(join(repo, 'gitbook-docs.yaml'), AFTER);
  const moves = [
    'move section api from section group products to the top of the site',
    'move section guides from the top of the site to section group products',
    'move space api-fr from section api to section guides',
    'move section group tools from the top of the site to section group products',
  ];
  // The dry run says what would move, and moves nothing.
  const dry = await run('content', 'push', repo, '--site', site, '--dry-run');
  for (const m of moves) expect(dry.stdout).toContain(`  ${m}\n`);
  expect(shapeOf((await run('sites', 'structure', site, '--json')).json.structure, {})).toEqual([
    [
      'group',
      'Products',
      [
        [
          'section',
          'API',
          [
            ['space', 'api-en'],
            ['space', 'api-fr'],
          ],
        ],
      ],
    ],
    ['section', 'Guides', [['space', 'handbook']]],
    ['group', 'Tools', [['section', 'CLI', [['space', 'cli-docs']]]]],
  ]);

  const pushed = (await run('content', 'push', repo, '--site', site, '--json')).json;
  expect(pushed.structure).toEqual(moves);
  const after: Record<string, string> = {};
  expect(shapeOf((await run('sites', 'structure', site, '--json')).json.structure, after)).toEqual([
    ['section', 'API', [['space', 'api-en']]],
    [
      'group',
      'Products',
      [
        [
          'section',
          'Guides',
          [
            ['space', 'handbook'],
            ['space', 'api-fr'],
          ],
        ],
        ['group', 'Tools', [['section', 'CLI', [['space', 'cli-docs']]]]],
      ],
    ],
  ]);
  // The same items: ids kept (their published URLs and history with them), nothing made again.
  expect(after).toEqual(before);
  expect(pushed.spaces.map((s: any) => [s.key, s.created])).toEqual([
    ['api-en', false],
    ['handbook', false],
    ['api-fr', false],
    ['cli-docs', false],
  ]);
  // Pushed again: nothing to move; pulled: the file as pushed.
  expect((await run('content', 'push', repo, '--site', site, '--json')).json.structure).toEqual([]);
  const out = join(tempDir('docs-site-move-pull-'), 'out');
  await run('content', 'pull', out, '--site', site);
  expect(readFileSync(join(out, 'gitbook-docs.yaml'), 'utf8')).toBe(AFTER);
}

describe('docs content push --site moves known items between containers (ids kept)', () => {
  it('in-process', { timeout: 180_000 }, async () => {
    await scenario({ DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_site_move' });
  });

  it('against a server (--api-url, --token)', { timeout: 180_000 }, async () => {
    const s = await startServer({ dataDir: tempDir() });
    try {
      await scenario({ DOCS_API_URL: s.url, DOCS_TOKEN: s.token });
    } finally {
      await s.stop();
    }
  });
});
