import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ownerOf } from '../../src/auth/bootstrap.js';
import { fileName } from '../../src/store/file-backend.js';
import { forgetTrees } from '../../src/content/revisions.js';
import { openContext } from '../../src/open.js';
import { pushDigestRoute } from '../../src/push-digest.js';
import type { ShardStore } from '../../src/store/shard-store.js';
import { docs } from '../helpers/cli.js';
import { tempDir } from '../helpers/server.js';

// Issue 28 item 2: a one-line change pushed and merged in process keeps the pages it changed as
// a patch of the kept digest, and the next push of the folder reads the digest and the patch,
// not the page tree: neither the merging push nor a later one writes or reads 2,000 pages' worth.

describe('the push digest kept as a patch after a one-line change', () => {
  it('is written by the merging push, leaves the digest file as it was, and the next push reads no page node', async () => {
    const data = tempDir('docs-digest-patch-data-');
    const env = { DOCS_CONFIG_DIR: tempDir('docs-digest-patch-config-') };
    const dir = tempDir('docs-digest-patch-');
    for (let s = 0; s < 3; s++) {
      mkdirSync(join(dir, `part-${s}`));
      writeFileSync(join(dir, `part-${s}`, 'README.md'), `# Part ${s}\n\nStart with [the first page](page-1.md).\n`);
      for (let i = 1; i <= 12; i++)
        writeFileSync(join(dir, `part-${s}`, `page-${i}.md`), `# Page ${s}.${i}\n\nSome words on page ${i}, then [the part](README.md).\n`);
    }
    const cli = async (...args: string[]) => {
      const r = await docs([...args, '--json', '--data', data], env);
      expect(r.status, r.stderr).toBe(0);
      return r.json;
    };
    await cli('spaces', 'list');
    const space = (await cli('spaces', 'create', '--title', 'Patched')).id;
    const push = () => cli('content', 'push', dir, '--space', space, '--merge');
    expect(await push()).toMatchObject({ added: 39, merged: true });
    const digestFile = join(data, 'store', fileName(`space/${space}/digest`));
    const patchFile = join(data, 'store', fileName(`space/${space}/digest-patch`));
    const digestText = readFileSync(digestFile, 'utf8');

    appendFileSync(join(dir, 'part-1', 'page-7.md'), '\nOne more line.\n');
    expect(await push()).toMatchObject({ updated: 1, merged: true });
    // The merging push kept a patch of the page and its ancestor; the digest's file is as it was.
    expect(readFileSync(digestFile, 'utf8')).toBe(digestText);
    const patch = Object.values(JSON.parse(readFileSync(patchFile, 'utf8')).pushDigestPatches)[0] as { entries: string };
    expect(Object.values(JSON.parse(patch.entries)).map((e: any) => e.path)).toEqual(['part-1', 'part-1/page-7']);

    // A fresh process's digest: from the kept rows, without loading the node group (the trees
    // this process materialized for the pushes above forgotten, as a new process has none).
    forgetTrees();
    const ctx = await openContext(data);
    try {
      const caller = { userId: (await ownerOf(ctx))! };
      const got = await pushDigestRoute(ctx, caller, 'GET', { space });
      expect((got.body as { kept: boolean }).kept).toBe(true);
      const store = ctx.store as unknown as ShardStore;
      expect(store.loaded(`space/${space}/digest-patch`)).toBe(true);
      expect(store.loaded(`space/${space}/n`)).toBe(false);
    } finally {
      await ctx.store.close();
    }
    // And the folder, pushed again, is found unchanged.
    expect(await push()).toMatchObject({ changeRequest: null, updated: 0 });
  });
});
