import { describe, expect, it } from 'vitest';
import { Router } from '../../src/contract/router.js';
import { OPERATION_IDS } from '../../src/operations.js';

// The router remembers matches by method and path (src/contract/router.ts): a remembered match
// must answer exactly what a fresh walk answers, and what a caller does with its copy must not
// leak into the next answer.
describe('router: remembered matches', () => {
  it('answers a repeated path the same, with parameters the caller may change freely', () => {
    const r = new Router(OPERATION_IDS);
    const first = r.match('GET', '/spaces/abc');
    expect(first).toEqual({ operationId: 'getSpaceById', path: { spaceId: 'abc' } });
    first.path.spaceId = 'changed';
    expect(r.match('GET', '/spaces/abc')).toEqual({ operationId: 'getSpaceById', path: { spaceId: 'abc' } });
    expect(r.match('PATCH', '/spaces/abc').operationId).toBe('updateSpaceById');
    expect(r.match('GET', '/spaces/a%20b').path.spaceId).toBe('a b');
  });

  it('never remembers a miss: 404 and 405 every time', () => {
    const r = new Router(OPERATION_IDS);
    for (let i = 0; i < 2; i++) {
      expect(() => r.match('GET', '/nowhere/at/all')).toThrow(/no route/);
      expect(() => r.match('PUT', '/spaces/abc')).toThrow(/not allowed/);
    }
  });
});
