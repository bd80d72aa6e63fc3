import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { asciiJsonText } from '../../src/openapi/diff/ascii-json.js';
import { loadSpec, readLocal } from '../../src/openapi/diff/load.js';
import { mayReferOutside } from '../../src/openapi/diff/resolve.js';
import { parseText } from '../../src/openapi/parse-text.js';

// A JSON spec with characters outside ASCII is read as ASCII text, those characters escaped
// (decoded as latin1, not UTF-8: issue 30); the values parsed are those of the file as written,
// and anything that could read differently gets the UTF-8 text.

const bytes = (s: string) => Buffer.from(s, 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'docs-ascii-json-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('asciiJsonText', () => {
  it('escapes each character outside ASCII (2, 3 and 4 bytes, at the ends of the ranges read byte by byte): the same values', () => {
    const filler = 'x'.repeat(700);
    const doc = {
      openapi: '3.1.0',
      info: { title: 'Café — “quoted” 🎉', description: `${filler}é${filler}→${'y'.repeat(1023)}…` },
      paths: { '/é': { get: { summary: '日本語' } } },
    };
    for (const text of [JSON.stringify(doc), JSON.stringify(doc, null, 2), `\n\t ${JSON.stringify([doc, '€'])}`]) {
      const got = asciiJsonText(bytes(text))!;
      expect(got).toBeDefined();
      expect(/^[\x00-\x7f]*$/.test(got)).toBe(true);
      expect(JSON.parse(got)).toEqual(JSON.parse(text));
      expect(mayReferOutside(got)).toBe(mayReferOutside(text));
    }
  });

  it('none for YAML, a byte order mark, invalid UTF-8, or a character \\s matches', () => {
    expect(asciiJsonText(bytes('title: Café\n'))).toBeUndefined();
    expect(asciiJsonText(bytes('\uFEFF{"a": "é"}'))).toBeUndefined();
    expect(asciiJsonText(Buffer.from([0x7b, 0x22, 0xc3, 0x22, 0x7d]))).toBeUndefined();
    expect(asciiJsonText(Buffer.from([0x7b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]))).toBeUndefined();
    expect(asciiJsonText(Buffer.from([0x7b, 0x22, 0xe0, 0x80, 0xaf, 0x22, 0x7d]))).toBeUndefined();
    expect(asciiJsonText(bytes('{"a": "x\u00a0y"}'))).toBeUndefined();
    expect(asciiJsonText(bytes('{"a": "x\u2028y"}'))).toBeUndefined();
  });
});

describe('readLocal and loadSpec of a JSON spec outside ASCII', () => {
  it('read as ASCII text, parsed to the values of the file as written', async () => {
    const text = JSON.stringify({ openapi: '3.0.3', info: { title: 'Spéc — 🎉', version: '1' }, paths: {} }, null, 2);
    const file = join(dir, 'spec.json');
    writeFileSync(file, text);
    const local = readLocal(file)!;
    expect(local.escaped).toBe(true);
    expect(local.text).toContain('Sp\\u00e9c \\u2014 \\ud83c\\udf89');
    const spec = await loadSpec(file, async () => ({ files: {} }), local);
    expect(spec.files['spec.json']).toEqual(JSON.parse(text));
  });

  it('an error is reported at the line and column of the file as written', async () => {
    const text = '{\n  "openapi": "3.0.3", "info": { "title": "日本語 — 🎉", },\n  "paths": {}\n}';
    const file = join(dir, 'broken.json');
    writeFileSync(file, text);
    const local = readLocal(file)!;
    expect(local.escaped).toBe(true);
    const expected = await parseText(text, file).then(
      () => 'parsed',
      (err) => err.errors[0].message,
    );
    expect(expected).toMatch(/line 2, column 54:/);
    await expect(loadSpec(file, async () => ({ files: {} }), local)).rejects.toThrow(expected);
  });
});
