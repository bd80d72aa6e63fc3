import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_SIZE, paginate } from '../../src/kernel/pagination.js';
import { DocsError } from '../../src/kernel/errors.js';

const items = Array.from({ length: 250 }, (_, i) => i);

describe('paginate', () => {
  it('uses the default page size and gives the total count', () => {
    const p = paginate(items, {});
    expect(p.items).toHaveLength(DEFAULT_PAGE_SIZE);
    expect(p.count).toBe(250);
    expect(p.next?.page).toBeTypeOf('string');
  });

  it('walks every item exactly once through next.page', () => {
    const seen: number[] = [];
    let page: string | undefined;
    do {
      const p = paginate(items, { limit: 40, page });
      seen.push(...p.items);
      page = p.next?.page;
    } while (page);
    expect(seen).toEqual(items);
  });

  it('has no next on the last page', () => {
    expect(paginate([1, 2], { limit: 2 }).next).toBeUndefined();
  });

  it.each([0, 1001, 2.5, -1])('refuses limit %s', (limit) => {
    expect(() => paginate(items, { limit })).toThrowError(/limit: must be an integer from 1 to 1000/);
  });

  it.each(['zzz', '', 'cDE6LTE', Buffer.from('p1:abc').toString('base64url'), 'a'.repeat(100)])('refuses a forged cursor %j as invalid input', (page) => {
    try {
      paginate(items, { page });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(DocsError);
      expect((e as DocsError).status).toBe(400);
    }
  });

  it('maps items', () => {
    expect(paginate([1, 2, 3], { limit: 2 }, (n) => n * 10).items).toEqual([10, 20]);
  });
});
