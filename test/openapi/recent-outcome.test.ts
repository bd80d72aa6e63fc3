import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { processSource } from '../../src/openapi/pipeline.js';
import { invalidSpec, petstore, splitRoot, startFixtures } from './fixtures.js';

// processSource keeps the last outcome of a text that read nothing beyond itself (src/openapi/
// pipeline.ts `recent`): an in-process `openapi put --file --wait` checks its file, then its job
// processes the same text again.

let fx: Awaited<ReturnType<typeof startFixtures>>;
beforeAll(async () => {
  fx = await startFixtures();
});
afterAll(() => fx.close());
afterEach(() => {
  vi.useRealTimers();
  delete process.env.DOCS_FETCH_ALLOW_PRIVATE;
});

describe('the last outcome of a text', () => {
  it('is given again for the same text, not for another, and is not to be changed', async () => {
    const text = petstore('Kept once');
    const first = await processSource({ text });
    expect(first.ok).toBe(true);
    expect(await processSource({ text: `${text}` })).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    const other = await processSource({ text: petstore('Another') });
    expect(other).not.toBe(first);
    expect(await processSource({ text })).not.toBe(first); // only the last is kept
  });

  it('is not kept for a text that failed, one with external $refs (read again each time), or a URL', async () => {
    const bad = invalidSpec;
    expect(await processSource({ text: bad })).not.toBe(await processSource({ text: bad }));
    process.env.DOCS_FETCH_ALLOW_PRIVATE = '1';
    const withRef = splitRoot(`${fx.base}/split/schemas/responses.yaml`);
    const before = fx.hits.get('/split/schemas/responses.yaml') ?? 0;
    const a = await processSource({ text: withRef });
    expect(a.ok).toBe(true);
    expect(await processSource({ text: withRef })).not.toBe(a);
    expect(fx.hits.get('/split/schemas/responses.yaml')).toBe(before + 2);
    const url = { url: `${fx.base}/petstore.yaml` };
    expect(await processSource(url)).not.toBe(await processSource(url));
  });

  it('is forgotten after 30 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const text = petstore('Forgotten');
    const first = await processSource({ text });
    vi.advanceTimersByTime(29_000);
    expect(await processSource({ text })).toBe(first);
    vi.advanceTimersByTime(2_000);
    expect(await processSource({ text })).not.toBe(first);
  });
});
