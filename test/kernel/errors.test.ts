import { describe, expect, it } from 'vitest';
import { asDocsError, DocsError, kindForStatus, type ErrorKind } from '../../src/kernel/errors.js';
import { newId } from '../../src/kernel/ids.js';

describe('errors', () => {
  it.each<[ErrorKind, number, number]>([
    ['invalid', 400, 2],
    ['unauthenticated', 401, 4],
    ['forbidden', 403, 4],
    ['not_found', 404, 3],
    ['conflict', 409, 5],
    ['precondition', 412, 5],
    ['bug', 500, 1],
  ])('%s maps to HTTP %i and exit code %i', (kind, status, exit) => {
    const e = new DocsError(kind, 'm');
    expect(e.status).toBe(status);
    expect(e.exitCode).toBe(exit);
    expect(e.toBody()).toEqual({ error: { code: status, message: 'm' } });
    expect(kindForStatus(status)).toBe(kind);
  });

  it('hides the details of unexpected errors', () => {
    const e = asDocsError(new TypeError('secret path /etc'));
    expect(e.kind).toBe('bug');
    expect(e.message).toBe('internal error');
  });
});

describe('ids', () => {
  it('are fixed-length, URL-safe and not sequential', () => {
    const ids = Array.from({ length: 1000 }, () => newId());
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(new Set(ids).size).toBe(1000);
  });
});
