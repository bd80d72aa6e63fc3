import { describe, expect, it } from 'vitest';
import { mergeThreeWay, type PageSnapshot } from '../../src/change-requests/three-way.js';

const page = (markdown: string, meta: Record<string, unknown> = {}): PageSnapshot => ({ markdown, meta: { title: 'T', parent: null, ...meta } });
const set = (entries: Record<string, PageSnapshot>) => new Map(Object.entries(entries));
const doc = (...lines: string[]) => lines.join('\n');

describe('three-way merge of pages', () => {
  const base = set({ a: page(doc('# A', 'one', 'two', 'three', 'four')), b: page('# B') });

  it('takes changes made on different pages from both sides', () => {
    const ours = set({ a: page(doc('# A', 'ONE', 'two', 'three', 'four')), b: page('# B') });
    const theirs = set({ a: base.get('a')!, b: page('# B changed') });
    const r = mergeThreeWay(base, ours, theirs);
    expect(r.conflicts).toEqual([]);
    expect(r.pages.get('a')!.markdown).toContain('ONE');
    expect(r.pages.get('b')!.markdown).toBe('# B changed');
  });

  it('merges non-overlapping edits of the same page with diff3', () => {
    const ours = set({ a: page(doc('# A', 'ONE', 'two', 'three', 'four')), b: page('# B') });
    const theirs = set({ a: page(doc('# A', 'one', 'two', 'three', 'FOUR')), b: page('# B') });
    const r = mergeThreeWay(base, ours, theirs);
    expect(r.conflicts).toEqual([]);
    expect(r.pages.get('a')!.markdown).toBe(doc('# A', 'ONE', 'two', 'three', 'FOUR'));
  });

  it('reports overlapping edits as a conflict and merges nothing', () => {
    const ours = set({ a: page(doc('# A', 'mine', 'two', 'three', 'four')), b: page('# B') });
    const theirs = set({ a: page(doc('# A', 'yours', 'two', 'three', 'four')), b: page('# B changed') });
    const r = mergeThreeWay(base, ours, theirs);
    expect(r.conflicts).toEqual([{ page: 'a', reason: 'content' }]);
    expect(r.pages.size).toBe(0);
  });

  it('merges metadata field by field, and reports the same field set to two values', () => {
    const ours = set({ a: page(base.get('a')!.markdown, { title: 'Mine' }), b: page('# B') });
    const theirs = set({ a: page(base.get('a')!.markdown, { emoji: '🎉' }), b: page('# B') });
    expect(mergeThreeWay(base, ours, theirs).pages.get('a')!.meta).toEqual({ title: 'Mine', parent: null, emoji: '🎉' });
    const clash = set({ a: page(base.get('a')!.markdown, { title: 'Yours' }), b: page('# B') });
    expect(mergeThreeWay(base, ours, clash).conflicts).toEqual([{ page: 'a', reason: 'metadata', fields: ['title'] }]);
  });

  it('keeps deletions and additions from either side; delete against change is a conflict', () => {
    const ours = set({ a: base.get('a')!, c: page('# C') });
    const theirs = set({ a: base.get('a')!, b: base.get('b')!, d: page('# D') });
    const r = mergeThreeWay(base, ours, theirs);
    expect([...r.pages.keys()].sort()).toEqual(['a', 'c', 'd']);
    const changed = set({ a: base.get('a')!, b: page('# B edited') });
    expect(mergeThreeWay(base, ours, changed).conflicts).toEqual([{ page: 'b', reason: 'deleted' }]);
  });

  it('refuses a page whose parent the other side deleted', () => {
    const ours = set({ a: base.get('a')! }); // b deleted
    const theirs = set({ a: base.get('a')!, b: base.get('b')!, child: page('# Child', { parent: 'b' }) });
    expect(mergeThreeWay(base, ours, theirs).conflicts).toEqual([{ page: 'child', reason: 'orphaned' }]);
  });
});
