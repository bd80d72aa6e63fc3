import { createRequire } from 'node:module';
import { expect, test, vi } from 'vitest';

// Module bodies run on the first request of their area: nothing costly may happen there (issue 28
// item 1, the first request of an operation against its warm latency). Each case fails if the
// module makes its costly object at load again.

test('the reactions module makes no Intl.Segmenter until an emoji is checked (ICU break data: ~145 ms)', async () => {
  const Real = Intl.Segmenter;
  let made = 0;
  const intl = Intl as { Segmenter: typeof Real };
  intl.Segmenter = class extends Real {
    constructor(...args: ConstructorParameters<typeof Real>) {
      super(...args);
      made++;
    }
  } as typeof Real;
  try {
    vi.resetModules();
    const { isEmoji } = await import('../../src/comments/reactions.js');
    expect(made).toBe(0);
    expect(isEmoji('👍🏽')).toBe(true);
    expect(isEmoji('ab')).toBe(false);
    expect(made).toBe(1); // made once, then kept
  } finally {
    intl.Segmenter = Real;
  }
});

test("the conversations' words module loads stopword's lists (60 languages, ~100 ms) only when a text is read", async () => {
  const require = createRequire(import.meta.url);
  const path = require.resolve('stopword');
  delete require.cache[path];
  vi.resetModules();
  const { contentWords } = await import('../../src/conversations/words.js');
  expect(require.cache[path]).toBeUndefined();
  expect(contentWords('the pages of the guide').map((w) => w.word)).toEqual(['pages', 'guide']);
  expect(require.cache[path]).toBeDefined();
});
