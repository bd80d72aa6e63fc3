import { describe, expect, it } from 'vitest';
import { rowSha, sha256hex } from '../../src/content/link-index.js';

// A stored row's hash is computed once per row object (rows are the store's frozen objects), so
// the routes a pull or a push asks one after another (content-index, push-digest twice) check
// that a row hashes to its address without hashing it again; an object that can change is
// hashed each time.

describe('rowSha', () => {
  it('is the SHA-256 of the markdown, remembered for a frozen row only', () => {
    const frozen = Object.freeze({ markdown: '# A page\n' });
    expect(rowSha(frozen)).toBe(sha256hex('# A page\n'));
    expect(rowSha(frozen)).toBe(sha256hex('# A page\n'));
    const open = { markdown: 'before' };
    expect(rowSha(open)).toBe(sha256hex('before'));
    open.markdown = 'after';
    expect(rowSha(open)).toBe(sha256hex('after'));
  });
});
