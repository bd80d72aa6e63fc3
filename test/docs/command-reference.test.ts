import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/kernel/root.js';
import { tempDir } from '../helpers/server.js';

// The manual's command reference (docs/manual/reference/, and its entries in SUMMARY.md) is
// generated from the command manifest and committed: it must be what the manifest gives today.
// After changing a command: npm run build, then npm run build:reference.

const root = packageRoot();
const script = pathToFileURL(join(root, 'scripts', 'build-command-reference.mjs')).href;
type Reference = { staleFiles(dir?: string): string[]; expectedFiles(dir?: string): Record<string, string> };
const load = async () => (await import(script)) as Reference;

/** A repository-shaped copy of what the reference is made from and of the reference itself. */
function copyOfRepo(): string {
  const dir = tempDir('docs-reference-');
  for (const f of ['package.json', 'oclif.manifest.json']) cpSync(join(root, f), join(dir, f));
  mkdirSync(join(dir, 'docs', 'manual'), { recursive: true });
  cpSync(join(root, 'docs', 'manual', 'SUMMARY.md'), join(dir, 'docs', 'manual', 'SUMMARY.md'));
  cpSync(join(root, 'docs', 'manual', 'reference'), join(dir, 'docs', 'manual', 'reference'), { recursive: true });
  return dir;
}

describe('the command reference (docs/manual/reference)', () => {
  it('is what the command manifest gives (else: npm run build:reference)', async () => {
    const { staleFiles } = await load();
    expect(staleFiles(root), 'stale pages: run npm run build:reference and commit them').toEqual([]);
  });

  it('has every visible command of the manifest, with its examples', async () => {
    const { expectedFiles } = await load();
    const manifest = JSON.parse(readFileSync(join(root, 'oclif.manifest.json'), 'utf8'));
    const all = Object.values(expectedFiles(root)).join('\n');
    for (const c of Object.values(manifest.commands) as { id: string; hidden?: boolean; examples?: string[] }[]) {
      if (c.hidden) continue;
      expect(all, c.id).toContain(`\n## docs ${c.id.split(':').join(' ')}\n`);
      const first = c.examples?.[0];
      if (typeof first === 'string') expect(all, c.id).toContain(`$ ${first.replaceAll('<%= config.bin %>', 'docs')}`);
    }
  });

  it('names each stale file: a changed command, a topic gone, a SUMMARY.md without the entries', async () => {
    const { staleFiles } = await load();
    const dir = copyOfRepo();
    try {
      expect(staleFiles(dir)).toEqual([]);
      const manifestFile = join(dir, 'oclif.manifest.json');
      const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
      manifest.commands['spaces:list'].examples.push('<%= config.bin %> spaces list --a-new-example');
      writeFileSync(manifestFile, JSON.stringify(manifest));
      writeFileSync(join(dir, 'docs', 'manual', 'reference', 'gone.md'), '# docs gone\n');
      const summary = join(dir, 'docs', 'manual', 'SUMMARY.md');
      writeFileSync(summary, readFileSync(summary, 'utf8').replace('  * [docs spaces](reference/spaces.md)\n', ''));
      expect(staleFiles(dir).sort()).toEqual(['docs/manual/SUMMARY.md', 'docs/manual/reference/gone.md', 'docs/manual/reference/spaces.md']);
      // A SUMMARY.md without the reference's entry is an error naming the line it needs.
      writeFileSync(summary, '# Table of contents\n\n* [The docs manual](README.md)\n');
      expect(() => staleFiles(dir)).toThrow('no line "* [Command reference](reference/README.md)"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
