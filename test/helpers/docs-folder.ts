import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from './server.js';

// A realistic docs folder for the round-trip, dry-run and CI-recipe tests.

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000003000000020806000000', 'hex');
const PDF = Buffer.from('%PDF-1.4\n%\u00e2\u00e3\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n', 'latin1');

/**
 * A realistic docs folder: SUMMARY.md with group headings, link text that is not the page's
 * first heading, nested pages, code with trailing spaces, images and an attachment, relative
 * links written several ways, frontmatter, a file with no final newline.
 */
export const ROUNDTRIP: Record<string, string | Buffer> = {
  'SUMMARY.md':
    '# Table of contents\n\n* [Introduction](README.md)\n* [Install](install.md)\n\n## Guides\n\n* [Getting started](guides/getting-started/README.md)\n  * [Advanced setup](guides/getting-started/advanced.md)\n* [Proxies](guides/proxies.md)\n\n## API reference\n\n* [Client](api/client.md)\n',
  'README.md':
    '# undici\n\nAn HTTP/1.1 client, written from scratch.\n\n![logo](.gitbook/assets/logo.png)\n\nSee [how to install](install.md) and [the client](api/client.md#options).\n',
  'install.md': '# Install\n\n```sh\nnpm i undici   \n```\n\nThen read [Getting started](guides/getting-started/README.md).',
  'guides/getting-started/README.md':
    "---\ndescription: First steps with undici\n---\n\n# Getting started\n\n![flow](../../images/flow.png)\n\nRelative: [advanced](./advanced.md), [proxies](../proxies.md).\n\n```js\nconst { request } = require('undici')  \n\t\n```\n",
  'guides/getting-started/advanced.md': '# Advanced setup\n\nBack to [install](../../install.md). The [sample](../../files/sample.pdf).\n\n\n',
  'guides/proxies.md': '# Proxies\n\nA line with a hard break  \nand the next one.\n\n    indented code   \n',
  'api/client.md': '# Client\n\n## Options\n\n| name | type |\n|---|---|\n| url | string |\n\n[Home](../README.md)\n',
  '.gitbook/assets/logo.png': PNG,
  'images/flow.png': PNG,
  'files/sample.pdf': PDF,
};

export function writeTree(files: Record<string, string | Buffer>, dir = tempDir('docs-roundtrip-src-')): string {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}
