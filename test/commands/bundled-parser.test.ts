import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/kernel/root.js';
import { builtProblem } from '../helpers/built.js';

// The markdown parser is in the bundle (scripts/build-bundle.mjs BUNDLED): a push that changes a
// page loads it as the bundle's lazy initializers, compiled from its code cache, not as ~80 ES
// modules resolved and compiled from node_modules (~40 ms of a one-line push; issue 28 item 2).
// Both ways of loading it: the CLI's synchronous one (commands/_lib/markdown-parser.ts) and the
// server's import() (src/content/link-refs.ts, src/documents/markdown.ts).

const problem = builtProblem();
const absent = problem?.startsWith('dist/ is absent') ?? false;

describe.skipIf(absent)('the bundle', () => {
  it('holds mdast-util-from-markdown and micromark, and loads neither from node_modules', () => {
    if (problem) throw new Error(problem);
    const bundle = readFileSync(join(packageRoot(), 'dist', 'cli', 'docs.cjs'), 'latin1');
    // (Booleans: a failed match would print the 2.7 MB bundle.)
    expect(bundle.includes('"node_modules/mdast-util-from-markdown/lib/index.js"')).toBe(true);
    expect(bundle.includes('"node_modules/micromark/')).toBe(true);
    expect(/(require|__docsImport)\("(mdast-util-from-markdown|micromark)/.test(bundle)).toBe(false);
    // The CLI's synchronous load (lazyParser): the bundled module's initializer.
    expect(/init_mdast_util_from_markdown\(\),__toCommonJS\(mdast_util_from_markdown_exports\)/.test(bundle)).toBe(true);
  });
});
