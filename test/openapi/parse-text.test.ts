import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { fastYaml, MAX_NESTING, ParseFailure, parseText } from '../../src/openapi/parse-text.js';
import { random, SEED } from '../helpers/sample.js';

// parseText reads a YAML spec with js-yaml where it can (fastYaml), `yaml` where not: a document
// must be the same whichever reads it, and `yaml` must keep what js-yaml would read otherwise.

/** What parseText made of a YAML text before js-yaml: `yaml` alone. */
function viaYaml(text: string): unknown {
  const doc = YAML.parseDocument(text, { version: '1.2', schema: 'core', uniqueKeys: true, prettyErrors: true });
  if (doc.errors.length) return { error: doc.errors[0]!.code };
  try {
    return doc.toJS({ maxAliasCount: 1000 });
  } catch {
    return { error: 'YAML' }; // parseText's code for what toJS refuses (an alias bomb)
  }
}

async function viaParseText(text: string): Promise<unknown> {
  try {
    return await parseText(text, 'spec.yaml');
  } catch (err) {
    if (!(err instanceof ParseFailure)) throw err;
    return { error: err.errors[0]!.code };
  }
}

const spec = (pkg: string) => readFileSync(join(__dirname, '..', '..', 'node_modules', pkg, 'spec', 'openapi.yaml'), 'utf8');

describe('YAML specs read by js-yaml', () => {
  it("reads both GitBook specs with js-yaml, the same document as yaml's", async () => {
    for (const pkg of ['gitbook-api-0146', 'gitbook-api-latest']) {
      const text = spec(pkg);
      const fast = await fastYaml(text);
      expect(fast, pkg).toBeDefined();
      expect(fast).toStrictEqual(viaYaml(text));
    }
  });

  // Scalars of the core schema and their near misses, keys, block and quoted scalars, and what
  // js-yaml would read otherwise (null keys, tags, directives, aliases) or refuses.
  const cases = [
    ...[
      '0o14',
      '014',
      '0x1F',
      '0x',
      '0o8',
      '1_000',
      '1,000',
      '.inf',
      '-.Inf',
      '+.INF',
      '.NaN',
      'NaN',
      'Infinity',
      '1e3',
      '1.5e+3',
      '1e',
      '+1',
      '-0',
      '0.',
      '.5',
      '+.5',
      '1.2.3',
      '00',
      '08',
      '12345678901234567890',
      '1.0',
      '-1.5E-3',
      '0b101',
      '-0o1',
      '+0x1',
    ].map((v) => `a: ${v}`),
    ...[
      'Null',
      'NULL',
      'nULL',
      '~',
      'TRUE',
      'True',
      'tRue',
      'yes',
      'no',
      'on',
      'off',
      'y',
      'n',
      '2024-01-01',
      '2001-12-14t21:59:43.10-05:00',
      '12:30:00',
      '-',
      '=',
      '<<',
      '@x',
      '`x',
      '%x',
    ].map((v) => `a: ${v}`),
    '1.50: x',
    '0x10: x',
    'true: x',
    '"": x',
    "'quoted key': v",
    'key with spaces: v',
    '__proto__: {x: 1}',
    'a: {__proto__: 1}',
    'constructor: 1',
    '<<: {a: 1}',
    '~: x',
    'null: x',
    ': x',
    'a:\n  null: 1',
    'a: !!float 1',
    'a: !!str 1',
    'a: !!binary aGk=',
    'a: !Custom x',
    '%YAML 1.1\n---\na: yes',
    'a: &x 1\nb: *x',
    `a: &a [1, 1]\n${Array.from({ length: 12 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}]`).join('\n')}`,
    '? [a, b]\n: x',
    'x: {[a]: b}',
    '? {a: 1}\n: x',
    '? a',
    'a: [a: 1]',
    'a: {a, b}',
    'a: [a, b, ]',
    'a: {a: 1, }',
    'a:\n  - 1\n  -\n  - 3',
    'a: |\n  line\n   more\n\n',
    'a: |+\n  keep\n\n\nb: 1',
    'a: |-\n  strip\n\n',
    'a: >-\n  folded\n  text\n\n  para',
    'a: >2\n   indented\n',
    'a: "esc \\x41 \\u263A \\U0001F600 \\t \\N \\_ \\L \\P \\0 \\e \\/"',
    "a: 'it''s'",
    'a: "multi\n  line\n\n  x"',
    'a: plain\n  multi\n  line',
    'a: x #c',
    'a: x#c',
    'a: "x" # c',
    '',
    '# only a comment',
    '---\na: 1\n...',
    'a: 1\n---\nb: 2',
    '- a\n- b',
    'a: 1\na: 2',
    'a: b: c',
    'a:\t1',
    '\ufeffa: 1',
    'a: [1, 2',
    'a: "open',
    '  a: 1\n b: 2',
    `${'a:\n'.repeat(1).trim()} ${'['.repeat(120)}${']'.repeat(120)}`,
  ];

  it('gives the same document, or the same error, as yaml alone', async () => {
    for (const text of cases) expect(await viaParseText(text), JSON.stringify(text)).toStrictEqual(viaYaml(text.replace(/^\ufeff/, '')));
  });

  it('leaves to yaml what js-yaml would read otherwise: null keys, tags, directives, aliases', async () => {
    expect(await parseText('null: x', 's')).toStrictEqual({ '': 'x' });
    expect(await parseText('a: !!float 1', 's')).toStrictEqual({ a: '1' });
    for (const text of ['null: x', ': x', 'a: !!float 1', 'a: !Custom x', '%YAML 1.1\n---\na: yes', 'a: &x 1\nb: *x'])
      expect(await fastYaml(text), text).toBeUndefined();
    // An alias bomb: yaml's alias count refuses it (js-yaml would share the nodes, and whatever
    // walks the document next would expand them).
    await expect(parseText(cases.find((c) => c.includes('*l'))!, 's')).rejects.toBeInstanceOf(ParseFailure);
    // An error keeps yaml's line and column.
    await expect(parseText('a: 1\nb: [1, 2\nc: 3', 's')).rejects.toThrow(/^s: line \d+, column \d+/);
  });

  it('refuses collections nested past MAX_NESTING before yaml reads them, however often (yaml overflowed, then aborted the process)', async () => {
    const flow = (n: number) => `a: ${'['.repeat(n)}${']'.repeat(n)}\n`;
    const deep = [
      flow(2000), // js-yaml's path
      `a: !Custom x\nb: ${'['.repeat(2000)}${']'.repeat(2000)}\n`, // a tag: yaml's path, behind js-yaml's parser
      `a:\n  ${'- '.repeat(3000)}x\n`, // block sequences, one line
    ];
    for (let round = 0; round < 3; round++) {
      for (const text of deep) {
        const failure = await parseText(text, 's.yaml').then(
          () => undefined,
          (e) => e,
        );
        expect(failure).toBeInstanceOf(ParseFailure);
        expect(failure.errors[0]).toMatchObject({ code: 'NESTING' });
        expect(failure.errors[0].message).toMatch(new RegExp(`^s\\.yaml: line \\d+, column \\d+: collections nested deeper than ${MAX_NESTING} levels$`));
      }
      // A syntax error before a deep part: named from the lines up to it; the rest never read.
      const broken = await parseText(`a: [1, 2\nb: 3\nc: ${'['.repeat(3000)}${']'.repeat(3000)}\n`, 's.yaml').then(
        () => undefined,
        (e) => e,
      );
      expect(broken).toBeInstanceOf(ParseFailure);
      expect(JSON.stringify(broken.errors)).not.toMatch(/call stack/);
      expect(broken.errors[0].message).toMatch(/^s\.yaml: line [12], column \d+: /);
    }
    // Up to the bound, both paths still read it.
    expect(await parseText(flow(MAX_NESTING - 2), 's.yaml')).toHaveProperty('a');
    expect(await parseText(`t: !Custom x\n${flow(MAX_NESTING - 2)}`, 's.yaml')).toHaveProperty('a');
  });

  it('tells the two apart in time linear in the text: a body of blanks is no denial of service', async () => {
    // Run on the built module in a worker, ended after 60 s: a pattern rescanning each run of
    // blanks (quadratic; hours for these 4 MB) would hang the test's own thread for good.
    const dist = join(__dirname, '..', '..', 'dist', 'src', 'openapi', 'parse-text.js');
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads');
       const text = 'a: b\\n' + ' '.repeat(2 << 20) + '\\n' + '- '.repeat(1 << 20) + 'x\\n';
       import(${JSON.stringify(dist)}).then((m) => m.fastYaml(text)).then((doc) => parentPort.postMessage(doc === undefined ? 'yaml' : 'js-yaml'), (e) => parentPort.postMessage(String(e)));`,
      { eval: true },
    );
    try {
      const answer = await new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error('fastYaml did not answer within 60 s')), 60_000);
        worker.once('message', (m) => (clearTimeout(t), resolve(m)));
        worker.once('error', (e) => (clearTimeout(t), reject(e)));
      });
      expect(answer).toMatch(/^(yaml|js-yaml)$/);
    } finally {
      await worker.terminate();
    }
  }, 70_000);

  it('gives the same documents for generated specs, written by yaml and by js-yaml in their styles', async () => {
    const next = random(SEED ^ 0x9a3c);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
    const words = [
      'get',
      'null',
      'true',
      'No',
      '0x1F',
      '1e3',
      '- a',
      'a: b',
      '#x',
      '"q"',
      "it's",
      'multi\nline\n',
      ' lead',
      'trail ',
      '',
      '~',
      '@',
      '%',
      '!',
      '&a',
      '*a',
      '{}',
      '[]',
      'é✓',
      '\t',
      'ünïcode 🙂',
    ];
    const scalar = () =>
      pick<() => unknown>([
        () => pick(words),
        () => Math.floor(next() * 1e6) - 5e5,
        () => next() * 100,
        () => next() < 0.5,
        () => null,
        () => pick(words) + pick(words),
      ])();
    const value = (depth: number): unknown => {
      if (depth > 4 || next() < 0.35) return scalar();
      if (next() < 0.4) return Array.from({ length: Math.floor(next() * 4) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(next() * 5) }, () => [`${pick(words)}${Math.floor(next() * 9)}`, value(depth + 1)]));
    };
    let fast = 0;
    for (let i = 0; i < 150; i++) {
      const doc = { openapi: '3.1.0', info: { title: pick(words), version: '1' }, paths: value(0) };
      const writers = [
        () => YAML.stringify(doc, { version: '1.2' }),
        () => YAML.stringify(doc, { defaultStringType: 'QUOTE_DOUBLE', collectionStyle: 'flow' }),
        () => YAML.stringify(doc, { blockQuote: 'folded', lineWidth: 20 }),
        () => dump(doc),
        () => dump(doc, { flowLevel: 2, lineWidth: 15, seqNoIndent: true, flowSkipColonSpace: true }),
        () => dump(doc, { quoteStyle: 'double', forceQuotes: true }),
      ];
      const text = pick(writers)();
      if ((await fastYaml(text)) !== undefined) fast++;
      expect(await viaParseText(text), text).toStrictEqual(viaYaml(text));
    }
    expect(fast).toBeGreaterThan(30); // the comparison covered js-yaml's path, not only yaml's
  });
});
