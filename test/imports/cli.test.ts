import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as fs from 'node:fs';
import git from 'isomorphic-git';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transport } from '../../src/transport/types.js';
import { docs } from '../helpers/cli.js';
import { runBoth } from '../helpers/parity.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';

// The commands (docs imports ..., docs spaces git ...) in process and over HTTP, and the seven
// operations through both transports (runBoth): same answers.

let s: TestServer;
let root: string;
beforeAll(async () => {
  root = tempDir('docs-git-root-');
  process.env.DOCS_GIT_ROOT = root;
  const dir = join(root, 'handbook');
  mkdirSync(dir);
  await git.init({ fs, dir, defaultBranch: 'main' });
  for (const [p, t] of Object.entries({ 'SUMMARY.md': '* [Home](README.md)\n* [FAQ](faq.md)\n', 'README.md': '# Home\n', 'faq.md': '# FAQ\n\nAsk.\n' })) {
    writeFileSync(join(dir, p), t);
    await git.add({ fs, dir, filepath: p });
  }
  await git.commit({ fs, dir, message: 'Docs', author: { name: 'T', email: 't@example.com' } });
  s = await startServer();
});
afterAll(() => s.stop());

const folder = () => {
  const dir = tempDir('docs-import-dir-');
  writeFileSync(join(dir, 'mkdocs.yml'), 'site_name: X\nnav:\n  - Home: index.md\n  - Usage: usage.md\n');
  mkdirSync(join(dir, 'docs'));
  writeFileSync(join(dir, 'docs/index.md'), '# Home\n\nHello.\n');
  writeFileSync(join(dir, 'docs/usage.md'), '# Usage\n\nRun it.\n');
  return dir;
};

describe('docs imports and docs spaces git, on both transports', () => {
  for (const [label, env] of [
    ['in-process', () => ({ DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_imports' })],
    ['over HTTP', () => ({ DOCS_API_URL: s.url, DOCS_TOKEN: s.token })],
  ] as const) {
    it(`${label}: start --dir --wait, list, get; git import, export, info`, async () => {
      const e = env();
      const space = (await docs(['spaces', 'create', '--title', `Imports ${label}`, '--json'], e)).json.id;
      const started = await docs(['imports', 'start', '--space', space, '--dir', folder(), '--wait', '--json'], e);
      expect(started.status, started.stderr).toBe(0);
      expect(started.json).toMatchObject({ status: 'completed', target: { space } });
      expect(started.json.pages.length).toBe(2);
      const list = await docs(['imports', 'list'], e);
      expect(list.stdout).toContain(started.json.id);
      expect((await docs(['imports', 'get', started.json.id, '--json'], e)).json.status).toBe('completed');
      const cancel = await docs(['imports', 'cancel', started.json.id], e);
      expect(cancel.status).toBe(2);
      expect(cancel.stderr).toContain('already completed');

      const imp = await docs(['spaces', 'git', 'import', space, '--url', 'handbook', '--ref', 'refs/heads/main'], e);
      expect(imp.status, imp.stderr).toBe(0);
      const exp = await docs(
        ['spaces', 'git', 'export', space, '--url', 'handbook', '--ref', `refs/heads/${label === 'in-process' ? 'a' : 'b'}`, '--commit-message', 'From docs'],
        e,
      );
      expect(exp.status, exp.stderr).toBe(0);
      const info = await docs(['spaces', 'git', 'info', space, '--json'], e);
      expect(info.json).toMatchObject({ operation: { state: 'success', direction: 'export' } });
      const refused = await docs(['spaces', 'git', 'import', space, '--url', '/etc', '--ref', 'main'], e);
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain("/etc is outside the server's Git root");
    });
  }

  it('the operations answer the same through both transports', async () => {
    const scenario = async (t: Transport) => {
      const org = ((await t.call('listOrganizationsForAuthenticatedUser', {})).body as any).items[0].id;
      const space = ((await t.call('createSpace', { path: { organizationId: org }, body: { title: 'Parity' } })).body as any).id;
      const imp = await t.call('importGitRepository', { path: { spaceId: space }, body: { url: 'handbook', ref: 'refs/heads/main' } });
      const info = (await t.call('getSpaceGitInfo', { path: { spaceId: space } })).body as any;
      const runs = (await t.call('listImportRuns', { path: { organizationId: org }, query: { space } })).body as any;
      const missing = await t.call('getImportRun', { path: { organizationId: org, importRunId: 'nope' } }).catch((err) => ({ status: err.status }));
      return [imp.status, info.operation.state, info.repoName, runs.items, missing.status];
    };
    const { local, remote } = await runBoth(s, scenario);
    expect(local).toEqual(remote);
    expect(local).toEqual([204, 'success', 'handbook', [], 404]);
  });
});
