import { copyFileSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { cachedModuleWork, requireCached } from '../../src/contract/cached-module.js';
import { packageRoot } from '../../src/kernel/root.js';
import { tempDir } from '../helpers/server.js';

// A precompiled body validator is loaded with a V8 code cache of its own (the Document body of
// updateChangeRequestContent is 830 KB of code: ~40 ms to compile in every write command). The
// cache changes how it is compiled, never what it does.
const generated = join(packageRoot(), 'generated', 'contract');
const OP = 'updateChangeRequestContent';
const inputs = [
  { changes: [{ operation: 'update_page', page: 'p1', document: { markdown: '# Hi\n' } }] },
  { changes: [] },
  { changes: [{ operation: 'insert_page', title: 'T', document: { markdown: 'x' } }, { operation: 'nope' }] },
  { nothing: true },
];

let dir: string;
let file: string;
let cache: string;
beforeEach(() => {
  dir = tempDir();
  mkdirSync(join(dir, 'bodies'));
  copyFileSync(join(generated, 'formats.cjs'), join(dir, 'formats.cjs'));
  symlinkSync(join(packageRoot(), 'node_modules'), join(dir, 'node_modules')); // ajv's runtime, as beside the package
  file = join(dir, 'bodies', `${OP}.cjs`);
  copyFileSync(join(generated, 'bodies', `${OP}.cjs`), file);
  cache = join(dir, 'cache');
});

const answers = (v: any) => inputs.map((x) => [v(x), JSON.stringify(v.errors ?? null)]);
const plain = () => answers(createRequire(import.meta.url)(join(generated, 'bodies', `${OP}.cjs`)));
const delta = (before: typeof cachedModuleWork) => ({
  loaded: cachedModuleWork.loaded - before.loaded,
  cacheHits: cachedModuleWork.cacheHits - before.cacheHits,
  written: cachedModuleWork.written - before.written,
});

describe('precompiled validators loaded with a code cache', () => {
  it('writes the cache after the first call, takes it in the next load, and answers as require() does', () => {
    let before = { ...cachedModuleWork };
    const first = requireCached(file, cache);
    expect(delta(before)).toEqual({ loaded: 1, cacheHits: 0, written: 0 });
    expect(answers(first)).toEqual(plain());
    expect(delta(before).written).toBe(1);
    expect(readdirSync(cache).filter((f) => f.endsWith('.cache'))).toHaveLength(1);
    expect(readdirSync(cache).filter((f) => f.endsWith('.tmp'))).toHaveLength(0);

    before = { ...cachedModuleWork };
    const second = requireCached(file, cache);
    expect(answers(second)).toEqual(plain());
    expect(delta(before)).toEqual({ loaded: 1, cacheHits: 1, written: 0 });
    // The module's own exports are kept: its `default` is the same validator.
    expect(inputs.map((x) => second.default(x))).toEqual(plain().map(([valid]) => valid));
  });

  it('a damaged cache is rejected by V8 and written again; the answers do not change', () => {
    answers(requireCached(file, cache));
    const [name] = readdirSync(cache);
    const bytes = readFileSync(join(cache, name!));
    bytes.fill(7, 64, 4096);
    writeFileSync(join(cache, name!), bytes);
    const before = { ...cachedModuleWork };
    expect(answers(requireCached(file, cache))).toEqual(plain());
    expect(delta(before)).toEqual({ loaded: 1, cacheHits: 0, written: 1 });
  });

  it('a module changed to another of the same length is compiled from its source, not from the old cache', () => {
    const small = join(dir, 'bodies', 'small.cjs');
    writeFileSync(small, 'module.exports = function validate(x) { return x === 1; };\n');
    const v = requireCached(small, cache);
    expect([v(1), v(2)]).toEqual([true, false]);
    writeFileSync(small, 'module.exports = function validate(x) { return x === 2; };\n');
    const before = { ...cachedModuleWork };
    const changed = requireCached(small, cache);
    expect(delta(before).cacheHits).toBe(0);
    expect([changed(1), changed(2)]).toEqual([false, true]);
  });

  it('a cache folder that cannot be written only means no cache', () => {
    writeFileSync(cache, 'a file where the folder would be');
    const before = { ...cachedModuleWork };
    expect(answers(requireCached(file, cache))).toEqual(plain());
    expect(delta(before)).toEqual({ loaded: 1, cacheHits: 0, written: 0 });
  });
});

describe("an operation's path and query validators (issue 28 item 1: the first request of an operation)", () => {
  const PARAMS = 'listSpacesInOrganizationById';
  const copy = () => {
    mkdirSync(join(dir, 'params'));
    const f = join(dir, 'params', `${PARAMS}.cjs`);
    copyFileSync(join(generated, 'params', `${PARAMS}.cjs`), f);
    return f;
  };
  const run = (v: any) => [v.path({ organizationId: 'o' }), v.query({ limit: '3' }), v.query({ limit: 'x' }), JSON.stringify(v.query.errors)];

  it('are written to the cache once both have been called, so that it holds the code of both; then taken', () => {
    const f = copy();
    let before = { ...cachedModuleWork };
    const first = requireCached(f, cache);
    first.path({ organizationId: 'o' });
    expect(delta(before)).toEqual({ loaded: 1, cacheHits: 0, written: 0 }); // not at load, not after path alone
    const plainAnswers = run(createRequire(import.meta.url)(join(generated, 'params', `${PARAMS}.cjs`)));
    expect(run(first)).toEqual(plainAnswers);
    expect(delta(before).written).toBe(1);
    before = { ...cachedModuleWork };
    expect(run(requireCached(f, cache))).toEqual(plainAnswers);
    expect(delta(before)).toEqual({ loaded: 1, cacheHits: 1, written: 0 });
  });

  it('are what validateInput loads, with their cache', async () => {
    vi.resetModules(); // validate.ts's own map of compiled validators, empty
    const { validateInput } = await import('../../src/contract/validate.js');
    const work = (await import('../../src/contract/cached-module.js')).cachedModuleWork;
    const { operationSpec } = await import('../../src/contract/spec.js');
    const loaded = work.loaded;
    expect(validateInput(operationSpec(PARAMS), { path: { organizationId: 'o' }, query: { limit: '3' } }).query).toEqual({ limit: 3 });
    expect(work.loaded - loaded).toBe(1);
  });
});
