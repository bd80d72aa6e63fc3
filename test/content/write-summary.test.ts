import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeSummary } from '../../src/content/folder-layout.js';

// SUMMARY.md as pull writes it: each entry links to its page's file relative to SUMMARY.md's
// folder. At the top (the usual place) a page's path is written as it is, without resolving it
// against the working folder (issue 28 item 2: 2,000 path.resolve calls of a 1,000-page pull);
// the links are the same as posix.relative gives.

const page = (path: string, children: any[] = []) => ({ path, title: `T ${path}`, children });

describe('writeSummary', () => {
  it('links each page relative to SUMMARY.md, at the top or in a folder', () => {
    const pages = [
      page('intro'),
      page('guide', [page('guide/setup'), page('guide/a b é')]),
      { ...page('x'), linkTo: { file: 'guide/setup.md', anchor: 'step-1' }, link: 'guide/setup.md#step-1' },
    ];
    expect(writeSummary(pages)).toBe(
      '# Table of contents\n\n* [T intro](intro.md)\n* [T guide](guide/README.md)\n  * [T guide/setup](guide/setup.md)\n  * [T guide/a b é](guide/a%20b%20%C3%A9.md)\n* [T x](guide/setup.md#step-1)\n',
    );
    const inDocs = writeSummary(pages, 'docs/SUMMARY.md');
    expect(inDocs).toContain(`(${posix.relative('docs', 'intro.md')})`);
    expect(inDocs).toContain('(../guide/README.md)');
  });
});
