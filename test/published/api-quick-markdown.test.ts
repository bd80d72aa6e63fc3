import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/kernel/root.js';
import { quickMarkdown } from '../../src/published/api/quick-markdown.js';
import { renderMarkdown } from '../../src/published/render/markdown.js';

// The quick path for spec descriptions draws exactly what the page renderer draws, for every
// description of the GitBook spec it takes, and refuses what it cannot draw safely.

const norm = (h: string) => h.replace(/\s+/g, ' ').replace(/> </g, '><').trim();
const render = async (t: string) => norm((await renderMarkdown(t, { link: () => undefined, image: () => undefined })).html);

describe('quick markdown for spec descriptions', () => {
  it('matches the page renderer on every description of the GitBook spec it takes', async () => {
    const spec = readFileSync(join(packageRoot(), 'node_modules', 'gitbook-api-latest', 'spec', 'openapi.json'), 'utf8');
    const texts = new Set<string>();
    JSON.parse(spec, (k, v) => (k === 'description' && typeof v === 'string' && texts.add(v), v));
    let taken = 0;
    for (const t of texts) {
      const quick = quickMarkdown(t);
      if (quick === undefined) continue;
      taken++;
      expect(norm(quick), t).toBe(await render(t));
    }
    // Most descriptions take the quick path.
    expect(taken / texts.size).toBeGreaterThan(0.8);
  }, 60_000);

  it('refuses HTML, autolinks, tables and the like; makes no unsafe link', async () => {
    for (const t of [
      '<b>x</b>',
      'see https://x.test',
      'a | b\n--|--\n1|2',
      '# Title',
      '> quote',
      '1. one',
      '```\ncode\n```',
      'a &amp; b',
      'x@y.test',
      '_em_',
      '![i](x.png)',
    ]) {
      expect(quickMarkdown(t), t).toBeUndefined();
    }
    expect(quickMarkdown('[click](javascript:alert(1))')).toBeUndefined(); // parentheses inside: the renderer takes it
    expect(quickMarkdown('[click](javascript:alert)')).toBe('<p><a href="#">click</a></p>');
    expect(quickMarkdown('Use `a<b>` and **bold** *em* [x](https://x.test)\n- one\n- two')).toBeUndefined(); // a list under a paragraph line
    expect(quickMarkdown('Use `a<b>` and **bold** *em* [x](https://x.test)')).toBeUndefined(); // `<` anywhere: renderer
    expect(quickMarkdown('Use `ab` and **bold** *em* [x](https://x.test)')).toBe(
      '<p>Use <code>ab</code> and <strong>bold</strong> <em>em</em> <a href="https://x.test">x</a></p>',
    );
  });
});
