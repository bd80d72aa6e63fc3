import { describe, expect, it } from 'vitest';
import { runJq } from '../../commands/_lib/jq.js';

describe('--jq', () => {
  it('filters a large list in time linear in its size (jq-wasm 1.x copied the rest of the input per byte: minutes for 1 MB)', async () => {
    const items = Array.from({ length: 4000 }, (_, i) => ({ id: `space-${i}`, title: `Space number ${i}`, description: 'x'.repeat(200) }));
    const value = { items, count: items.length };
    expect(JSON.stringify(value).length).toBeGreaterThan(1_000_000);
    const started = Date.now();
    expect(await runJq(value, '.items | length')).toBe('4000');
    expect((await runJq(value, '.items[-1].title')).trim()).toBe('Space number 3999');
    // Generous for a loaded machine: the linear library takes ~0.2 s here, the quadratic one > 60 s.
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('a bad expression or a runtime error is exit 2 naming the flag', async () => {
    await expect(runJq({ a: 1 }, '.a |')).rejects.toThrow(/^--jq: jq: error: syntax error/);
    await expect(runJq({ a: 1 }, '.a.b')).rejects.toThrow(/^--jq: jq: error .*Cannot index number/);
  });
});
