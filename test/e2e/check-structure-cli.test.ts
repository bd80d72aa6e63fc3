import { describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { writeTree } from '../helpers/docs-folder.js';

// docs content check DIR reads .gitbook.yaml as push does: the pages under its root, the table of
// contents at structure.summary (its links relative to its own folder).

describe('docs content check honors .gitbook.yaml structure.summary', () => {
  const files = (toc: string) => ({
    '.gitbook.yaml': 'root: ./docs/\nstructure:\n  summary: _toc/SUMMARY.md\n',
    'docs/_toc/SUMMARY.md': toc,
    'docs/README.md': '# Home\n\nSee [install](install.md).\n',
    'docs/install.md': '# Install\n',
  });

  it('a table of contents at structure.summary listing every page: no problem', { timeout: 60_000 }, async () => {
    const dir = writeTree(files('# Table of contents\n\n* [Home](../README.md)\n* [Install](../install.md)\n'));
    const r = await docs(['content', 'check', dir, '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.json.problems).toEqual([]);
    expect(r.json.counts.pages).toBe(2);
  });

  it('its problems are named in that file, with their line', { timeout: 60_000 }, async () => {
    const dir = writeTree(files('# Table of contents\n\n* [Home](../README.md)\n* [Gone](../gone.md)\n'));
    const r = await docs(['content', 'check', dir, '--json']);
    expect(r.status).toBe(1);
    const kinds = r.json.problems.map((p: any) => [p.file.replace(dir, 'DIR'), p.line, p.kind]);
    expect(kinds).toContainEqual(['DIR/docs/_toc/SUMMARY.md', 4, 'summary-missing-file']);
    expect(kinds).toContainEqual(['DIR/docs/install.md', 1, 'not-in-summary']);
  });
});
