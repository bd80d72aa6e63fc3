import { describe, expect, it } from 'vitest';
import { externalRefs } from '../../src/openapi/diff/resolve.js';

// A spec whose text has only local references (`"$ref": "#/..."`, pretty-printed with a space)
// is not walked for files to load: the walk cost ~0.4 s of a 1.7 MB spec's diff. (The test gives a
// document that disagrees with its text on purpose: only a skipped walk answers [].)
describe('externalRefs skips the walk when the text has no reference outside itself', () => {
  const doc = { components: { schemas: { A: { $ref: 'other.json#/B' } } } };
  it('pretty-printed local references: skipped', () => {
    expect(externalRefs(doc, 'spec.json', '{\n  "a": { "$ref": "#/components/schemas/B" },\n  "b": {"$ref":"#/x"}\n}')).toEqual([]);
    expect(externalRefs(doc, 'spec.yaml', 'a:\n  $ref: "#/components/schemas/B"\nb:\n  $ref: \'#/x\'\n')).toEqual([]);
  });
  it('a reference to another file: walked and found', () => {
    expect(externalRefs(doc, 'spec.json', '{ "a": { "$ref": "other.json#/B" } }')).toEqual(['other.json']);
    expect(externalRefs(doc, 'spec.yaml', 'a:\n  $ref: other.json#/B\n')).toEqual(['other.json']);
  });
});
