import { createRequire } from 'node:module';
import type { Parse } from '../../src/content/link-refs.js';

// The markdown parser for `docs content push | pull | check`, loaded on its first call: a push of
// an unchanged folder (links placed by the server's link index), a pull, or a check whose pages
// are all in its cache parse nothing, and loading mdast-util-from-markdown (~80 ES modules from
// node_modules) was a fifth of such a command's time (docs/manual/performance.md#ci-journeys).
// Synchronous: require() of an ES module, which Node has without a flag since 20.19 (package.json engines).

const require = createRequire(import.meta.url);
let loads = 0;

/** How many parsers lazyParser() made have loaded the module (for tests: a no-op push loads none). */
export const parserLoads = () => loads;

export function lazyParser(): Parse {
  let parse: Parse | undefined;
  return (markdown) => {
    if (!parse) {
      const { fromMarkdown } = require('mdast-util-from-markdown') as typeof import('mdast-util-from-markdown');
      parse = (md) => fromMarkdown(md);
      loads++;
    }
    return parse(markdown);
  };
}
