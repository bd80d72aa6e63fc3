import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffSpecs, type Change } from '../../src/openapi/diff/classify.js';

// The diff of the two real GitBook specs the project pins (0.146.0, 1.2 MB; 0.202.0, 1.7 MB),
// both ways, pinned as it was before the diff was made quicker (issue 30): the summary, the
// count of each rule id, and a hash of the whole change list (order, fields and messages), so
// that a speed-up that changes one line of the output fails here.

const spec = (alias: string) => JSON.parse(readFileSync(join(__dirname, '..', '..', 'node_modules', alias, 'spec', 'openapi.json'), 'utf8'));
const OLD = spec('gitbook-api-0146');
const NEW = spec('gitbook-api-latest');
const side = (doc: unknown) => ({ root: 'openapi.json', files: { 'openapi.json': doc } });
const countIds = (changes: Change[], level?: string) => {
  const out: Record<string, number> = {};
  for (const c of changes) if (!level || c.level === level) out[c.id] = (out[c.id] ?? 0) + 1;
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
};
const hash = (changes: Change[]) => createHash('sha256').update(JSON.stringify(changes)).digest('hex');

describe('openapi diff of the GitBook specs 0.146.0 and 0.202.0', () => {
  it('0.146.0 → 0.202.0: the breaking changes and the whole list are unchanged', () => {
    const d = diffSpecs(side(OLD), side(NEW));
    expect(d.summary).toEqual({ breaking: 329, warning: 518, info: 964 });
    expect(d.changes).toHaveLength(1811);
    expect(countIds(d.changes, 'breaking')).toEqual({
      'path-removed': 24,
      'request-additional-properties-refused': 1,
      'request-became-not-nullable': 2,
      'request-body-became-required': 1,
      'request-body-oneOf-removed': 1,
      'request-body-type-changed': 41,
      'request-enum-added': 4,
      'request-enum-value-removed': 89,
      'request-maxItems-decreased': 1,
      'request-maxLength-decreased': 1,
      'request-maximum-decreased': 2,
      'request-minLength-increased': 1,
      'request-minimum-increased': 2,
      'request-new-required-property': 12,
      'request-oneOf-removed': 23,
      'request-parameter-removed': 2,
      'request-parameter-type-changed': 1,
      'request-type-changed': 17,
      'response-became-nullable': 5,
      'response-property-became-optional': 1,
      'response-property-removed': 31,
      'response-success-status-removed': 1,
      'response-type-changed': 13,
      'security-requirement-removed': 52,
      'security-scheme-removed': 1,
    });
    expect(Object.keys(countIds(d.changes))).toHaveLength(63);
    expect(hash(d.changes)).toBe('f59c4941e8cfd5807b60d18c6e2df2574047b1e089f17f580f67eea33e82ea0f');
  });

  it('0.202.0 → 0.146.0 (every rule the other way): unchanged', () => {
    const d = diffSpecs(side(NEW), side(OLD));
    expect(d.summary).toEqual({ breaking: 848, warning: 177, info: 451 });
    expect(d.changes).toHaveLength(1476);
    expect(countIds(d.changes, 'breaking')).toMatchObject({
      'endpoint-removed': 4,
      'path-removed': 88,
      'request-parameter-removed': 44,
      'response-property-removed': 161,
      'security-requirement-removed': 258,
    });
    expect(hash(d.changes)).toBe('be2e4908d267a919c0fd62e28a7b5b9fa6def60e5a303bafd81a7e5fb1c1ccd6');
  });
});
