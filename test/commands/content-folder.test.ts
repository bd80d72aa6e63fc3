import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { naturalCompare, naturalSortBy, readFolder } from '../../commands/_lib/content-folder.js';
import { markedSubject, pushMarker, pushSource } from '../../commands/_lib/push-target.js';
import { loadParser } from '../../src/content/link-refs.js';
import { tempDir } from '../helpers/server.js';

// How `docs content push` reads a folder: natural order, a root README.md first, and the
// markdown files a SUMMARY.md leaves out; and how it marks the change requests it opens.

const paths = (pages: { path: string; children: any[] }[]): unknown[] => pages.map((p) => (p.children.length ? [p.path, paths(p.children)] : p.path));

describe('readFolder', () => {
  it('without SUMMARY.md: natural order (1, 2, 10), a root README.md first, at every depth', async () => {
    const dir = tempDir('docs-folder-');
    for (const f of ['10-faq.md', '2-setup.md', '1-intro.md', 'README.md', 'appendix.md']) writeFileSync(join(dir, f), `# ${f}\n`);
    mkdirSync(join(dir, 'parts'));
    for (const f of ['README.md', 'part-10.md', 'part-9.md']) writeFileSync(join(dir, 'parts', f), `# ${f}\n`);
    const got = await readFolder(dir, await loadParser());
    expect(paths(got.pages)).toEqual(['README', '1-intro', '2-setup', '10-faq', 'appendix', ['parts', ['parts/part-9', 'parts/part-10']]]);
    expect(got.skipped).toEqual([]);
  });

  it('structure.readme (.gitbook.yaml) is the first page instead of README.md; structure.summary is read where it says', async () => {
    const dir = tempDir('docs-folder-');
    for (const f of ['README.md', 'a.md', 'intro.md']) writeFileSync(join(dir, f), `# ${f}\n`);
    expect(paths((await readFolder(dir, await loadParser(), { readme: 'intro.md' })).pages)).toEqual(['intro', 'a', 'README']);
    mkdirSync(join(dir, 'toc'));
    writeFileSync(join(dir, 'toc', 'list.md'), '* [A](../a.md)\n* [Intro](../intro.md)\n');
    const got = await readFolder(dir, await loadParser(), { summary: 'toc/list.md' });
    expect(paths(got.pages)).toEqual(['a', 'intro']);
    expect(got.skipped).toEqual(['README.md']);
  });

  it('with SUMMARY.md: its order, and the markdown files it does not list as skipped', async () => {
    const dir = tempDir('docs-folder-');
    mkdirSync(join(dir, 'guide'));
    for (const f of ['README.md', 'b.md', 'a.md', 'guide/README.md', 'guide/extra.md', 'guide/setup.md']) writeFileSync(join(dir, f), `# ${f}\n`);
    writeFileSync(join(dir, 'SUMMARY.md'), '# Table of contents\n\n* [B](b.md)\n* [Guide](./guide/README.md)\n  * [Setup](guide/setup.md)\n');
    const got = await readFolder(dir, await loadParser());
    expect(paths(got.pages)).toEqual(['b', ['guide', ['guide/setup']]]);
    expect(got.skipped).toEqual(['a.md', 'guide/extra.md', 'README.md']);
  });
});

describe('naturalSortBy', () => {
  it('orders as sorting with naturalCompare does, by keys made once (ASCII) or the comparator (any other name)', () => {
    const ascii = ['page-10.md', 'Page-2.md', 'page-2.md', 'page-02.md', 'a_b.md', 'a-b.md', 'README.md', 'readme.md', '10', '9', 'z', 'Z', '.x', 'a b'];
    const other = [...ascii, 'été.md', 'Ete.md', 'ète-3.md', 'ète-10.md'];
    for (const names of [ascii, other]) {
      const items = names.map((name, i) => ({ name, i }));
      expect(naturalSortBy(items, (x) => x.name).map((x) => x.name)).toEqual([...names].sort(naturalCompare));
    }
  });
});

describe('the push marker', () => {
  it("is the folder's path in its Git repository, kept within the subject's 100 characters", () => {
    const repo = tempDir('docs-repo-');
    mkdirSync(join(repo, '.git'));
    mkdirSync(join(repo, 'site', 'docs'), { recursive: true });
    expect(pushSource(join(repo, 'site', 'docs'))).toBe('site/docs');
    expect(pushSource(repo)).toBe('.');
    expect(pushMarker(join(repo, 'site', 'docs'))).toBe('[push:site/docs]');
    const long = markedSubject('x'.repeat(200), join(repo, 'site', 'docs'));
    expect(long.length).toBe(100);
    expect(long.endsWith(' [push:site/docs]')).toBe(true);
    expect(markedSubject(undefined, join(repo, 'site', 'docs'))).toBe('Push from docs [push:site/docs]');
  });
});
