import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { hasBody, header } from '../../server/body.js';

const req = (rawHeaders: string[]) => ({ rawHeaders }) as unknown as IncomingMessage;

// The server reads the few headers it needs from rawHeaders (server/body.ts): the same values
// `req.headers` would give (names in any case; the first of duplicates).
describe('request headers from rawHeaders', () => {
  it('finds a header whatever the case of its name, the first of duplicates', () => {
    const r = req(['Host', 'x', 'AUTHORIZATION', 'Bearer one', 'authorization', 'Bearer two']);
    expect(header(r, 'authorization')).toBe('Bearer one');
    expect(header(r, 'content-type')).toBeUndefined();
  });

  it('a body only with a length or chunked encoding', () => {
    expect(hasBody(req(['Host', 'x']))).toBe(false);
    expect(hasBody(req(['Content-Length', '2']))).toBe(true);
    expect(hasBody(req(['Transfer-Encoding', 'chunked']))).toBe(true);
  });
});
