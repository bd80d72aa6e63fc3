import { expect, it } from 'vitest';
import { normalize } from './parity.js';

// normalize() maps ids to {idN} in order of appearance: a run of a longer token taken for an id on
// one side only shifted every later number (questions-styleguides-cli failed so, now and then).
it('takes ids for ids, not runs of 20 letters and digits inside a base64url token', () => {
  const org = 'AbCdEfGhIjKlMnOpQrSt';
  const site = 'ZyXwVuTsRqPoNmLkJiHg';
  const sub = `q${'a1B2c3D4e5F6g7H8i9J'}-x`; // 20 letters and digits from its start, then a dash
  expect(normalize({ id: `${org}.${sub}`, site, again: org }, 'http://b')).toEqual({ id: `{id0}.${sub}`, site: '{id1}', again: '{id0}' });
  expect(normalize('upload AbCdEfGhIjKlMnOpQrStUvWx done', 'http://b')).toBe('upload {id0} done'); // 24: an upload id
});
