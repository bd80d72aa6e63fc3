import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compared, type PlannedChange, pushBatches } from '../../commands/_lib/content-plan.js';
import { contentRowId, type PageNodeRecord } from '../../src/content/model.js';
import { currentRevision, forgetTrees } from '../../src/content/revisions.js';
import { PageNodes } from '../../src/content/tables.js';
import { Spaces } from '../../src/spaces/tables.js';
import { docs } from '../helpers/cli.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';

// A push sends a new page's body with its insert when the page and the pages its links lead to
// are where the push puts them by the end of that batch (commands/_lib/content-plan.ts
// pushBatches): each such page is written once, not empty and again with its body.

const insert = (path: string, into: string | null): PlannedChange => ({
  change: { operation: 'insert_page', ref: path, title: path, slug: path.slice(path.lastIndexOf('/') + 1), document: { markdown: '' }, at: 0 },
  path,
  intoPath: into,
});
const body = (path: string, linksTo: string[]): PlannedChange => ({
  change: { operation: 'update_page', title: path, document: { markdown: `# ${path}\n` }, source: `# ${path}\n` },
  pagePath: path,
  linksTo,
});

describe('pushBatches', () => {
  it("a new page's body goes with its insert when it and its links' pages are in by the end of its batch", () => {
    // Batches of 2: [a, a/x] [b, c] [d]; a gets its subpage in its own batch, c gets one in the next.
    const phase1 = [insert('a', null), insert('a/x', 'a'), insert('b', null), insert('c', null), insert('c/y', 'c')];
    const phase2 = [
      body('a', ['a/x']), // its subpage is in the same batch: with its insert
      body('a/x', ['c/y']), // leads to a page of a later batch: phase 2
      body('b', ['a']), // an earlier batch: with its insert
      body('c', []), // gets its subpage in a later batch (its folder changes): phase 2
      body('c/y', ['existing']), // a page the space has already: with its insert
      { change: { operation: 'update_page', title: 'Old', document: { markdown: 'x' } }, pagePath: 'existing' }, // not new: phase 2
    ];
    const batches = pushBatches({ phase1, phase2 }, 2);
    expect(batches.map((b) => b.map((c) => `${c.change.operation} ${c.path ?? c.pagePath}`))).toEqual([
      ['insert_page a', 'insert_page a/x'],
      ['insert_page b', 'insert_page c'],
      ['insert_page c/y'],
      ['update_page a/x', 'update_page c'],
      ['update_page existing'],
    ]);
    const sent = new Map(batches.flat().map((c) => [`${c.change.operation} ${c.path ?? c.pagePath}`, c.change]));
    expect(sent.get('insert_page a')).toMatchObject({ operation: 'insert_page', ref: 'a', document: { markdown: '# a\n' }, source: '# a\n' });
    expect(sent.get('insert_page a/x')).toMatchObject({ document: { markdown: '' } });
    expect(sent.get('insert_page a/x')).not.toHaveProperty('source');
    // The plan itself is left as it was (a dry run reports it).
    expect(phase1[0]!.change.document).toEqual({ markdown: '' });
  });

  it('sends every body in phase 2 when the plan deletes a page (a new page may take its path)', () => {
    const plan = { phase1: [{ change: { operation: 'delete_page', page: 'P1' } }, insert('a', null)], phase2: [body('a', [])] };
    expect(pushBatches(plan, 50).map((b) => b.map((c) => c.change.operation))).toEqual([['delete_page', 'insert_page'], ['update_page']]);
  });
});

describe('a first push writes each new page once', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ dataDir: tempDir() });
  });
  afterAll(() => s.stop());

  /** Three sections of a README and 39 pages: 120 inserts, in batches 0-49, 50-99, 100-119. */
  function folder(): string {
    const dir = tempDir('docs-push-batches-');
    for (let sec = 0; sec < 3; sec++) {
      mkdirSync(join(dir, `s${sec}`));
      writeFileSync(join(dir, `s${sec}`, 'README.md'), `# Section ${sec}\n\nStart with [the first page](page-1.md).\n`);
      for (let i = 1; i < 40; i++) {
        let links = 'Back to [the section](README.md).';
        // Insert 5: leads to insert 110 (batch 2). Insert 49: to insert 50 (batch 1).
        if (sec === 0 && i === 5) links += ' See [far](../s2/page-30.md).';
        if (sec === 1 && i === 9) links += ' Next [page](page-10.md).';
        writeFileSync(join(dir, `s${sec}`, `page-${i}.md`), `# Page ${sec}.${i}\n\nText of page ${sec}.${i}.\n\n${links}\n`);
      }
    }
    return dir;
  }

  it('one node per page but those linking ahead of their batch; links resolve; pull gives the folder back; a no-op push compares by hash', async () => {
    const org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
    const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Batches' } })).body.id as string;
    const dir = folder();
    const env = { DOCS_CONFIG_DIR: tempDir('docs-push-batches-config-') };
    const push = async () => {
      const r = await docs(['content', 'push', dir, '--space', space, '--merge', '--api-url', s.url, '--token', s.token, '--json'], env);
      expect(r.status, r.stderr).toBe(0);
      return r.json;
    };
    expect(await push()).toMatchObject({ added: 120, merged: true });

    // Node rows by page id (every revision's, as the store keeps them).
    // The node group is loaded whole, then its rows read from the store's memory (a group has
    // no directory to list it by).
    forgetTrees();
    await s.ctx.store.read((tx) => {
      const rev = currentRevision(tx, tx.get(Spaces, space)!);
      tx.wholeGroup?.(PageNodes, contentRowId(space, rev.rootNode!));
      return tx.get(PageNodes, contentRowId(space, rev.rootNode!));
    });
    const rows = (s.ctx.store as any).rows.table(PageNodes as string) as Map<string, PageNodeRecord>;
    const nodes = [...rows.values()].filter((r) => r.space === space);
    const versions = new Map<string, number>();
    for (const r of nodes) if (r.node.type === 'document' && /^Page /.test(r.node.title)) versions.set(r.node.title, (versions.get(r.node.title) ?? 0) + 1);
    expect(versions.size).toBe(117);
    expect([...versions].filter(([, n]) => n > 1).map(([t]) => t)).toEqual(['Page 0.5', 'Page 1.9']);

    // Every link resolves to its page, as the two-phase push resolved it.
    const links = await docs(['links', space, '--api-url', s.url, '--token', s.token, '--json'], env);
    expect(links.status, links.stderr).toBe(0);
    expect(links.json.stats.broken.total).toBe(0);
    const out = tempDir('docs-push-batches-pull-');
    const pulled = await docs(['content', 'pull', out, '--space', space, '--force', '--api-url', s.url, '--token', s.token, '--json'], env);
    expect(pulled.status, pulled.stderr).toBe(0);
    for (const f of ['s0/page-5.md', 's1/page-9.md', 's1/README.md', 's2/page-30.md'])
      expect(readFileSync(join(out, f), 'utf8'), f).toBe(readFileSync(join(dir, f), 'utf8'));

    // What the folded pages' writes recorded of their links holds: nothing is compared in full.
    const before = { ...compared };
    expect(await push()).toMatchObject({ changeRequest: null, added: 0, updated: 0 });
    expect(compared.full - before.full).toBe(0);
    expect(compared.byHash - before.byHash).toBe(120);
  });
});
