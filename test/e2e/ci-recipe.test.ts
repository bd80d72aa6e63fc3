import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/kernel/root.js';
import { BIN, docs, spawnServe } from '../helpers/cli.js';
import { tempDir } from '../helpers/server.js';
import { ROUNDTRIP, writeTree } from '../helpers/docs-folder.js';

// The CI recipe of the manual (docs/ci/docs-ci.sh), run as a CI runner would: `sh` with `docs`
// on PATH, in a checkout, against a server on loopback.

const SCRIPT = join(packageRoot(), 'docs', 'ci', 'docs-ci.sh');

function runner(): string {
  const bin = tempDir('docs-ci-bin-');
  writeFileSync(join(bin, 'docs'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'docs'), 0o755);
  return bin;
}

describe('the CI recipe (docs/ci/docs-ci.sh)', () => {
  it('checks and dry-runs on a pull request, publishes on merge, stops on a broken link', { timeout: 180_000 }, async () => {
    const s = await spawnServe(['--data', tempDir(), '--quiet'], { DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_ci_recipe' });
    try {
      const api = { DOCS_API_URL: s.url, DOCS_TOKEN: 'gb_api_e2e_ci_recipe' };
      const space = (await docs(['spaces', 'create', '--title', 'Handbook', '--json'], api)).json.id as string;
      const checkout = tempDir('docs-ci-checkout-');
      writeTree(ROUNDTRIP, join(checkout, 'docs'));
      const bin = runner();
      const ci = (event: string, extra: Record<string, string> = {}) =>
        spawnSync('sh', [SCRIPT], {
          cwd: checkout,
          encoding: 'utf8',
          timeout: 120_000,
          env: { PATH: `${bin}${delimiter}${process.env.PATH}`, HOME: process.env.HOME, ...api, DOCS_SPACE: space, DOCS_EVENT: event, ...extra },
        });
      const pages = async () => (await docs(['pages', 'list', space, '--json'], api)).json.pages;

      const pr = ci('pull_request');
      expect(pr.status, pr.stderr).toBe(0);
      expect(pr.stdout).toContain('Dry run, nothing changed: pushing docs would put into a new change request');
      expect(await pages()).toEqual([]);

      const merged = ci('push');
      expect(merged.status, merged.stderr).toBe(0);
      expect(merged.stdout).toMatch(/Merged into space/);
      const out = join(tempDir('docs-ci-pull-'), 'out');
      expect((await docs(['content', 'pull', out, '--space', space], api)).status).toBe(0);
      expect(readFileSync(join(out, 'install.md'), 'utf8')).toBe(ROUNDTRIP['install.md']);

      // A broken link: the check fails the job (exit 1, annotations), nothing is sent.
      writeFileSync(join(checkout, 'docs', 'install.md'), '# Install\n\nSee [nothing](nowhere.md).\n');
      const before = await pages();
      const broken = ci('push', { DOCS_FORMAT: 'github' });
      expect(broken.status).toBe(1);
      expect(broken.stdout).toContain('::error file=docs/install.md,line=3');
      expect(await pages()).toEqual(before);
    } finally {
      s.child.kill('SIGTERM');
      await s.exited;
    }
  });
});
