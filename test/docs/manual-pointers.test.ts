import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { describe, expect, it } from 'vitest';
import { headingAnchors } from '../../src/content/heading-anchors.js';
import { packageRoot } from '../../src/kernel/root.js';

// Comments (and help texts) point at the manual by path, with the heading's anchor when they
// point at a section: `docs/manual/store.md`, `docs/manual/cli.md#in-scripts-and-at-the-terminal`.
// Every such pointer must lead somewhere: the page exists, and so does a heading with that anchor
// (as the published site or GitHub spells it: src/content/heading-anchors.ts, the rule of
// `docs content check`). No comment points at README sections any more (the manual left it).

const root = packageRoot();
const DIRS = ['src', 'server', 'commands', 'scripts', 'bench', 'test', 'bin', '.ci'];
const CODE = /\.(ts|mts|cts|js|mjs|cjs)$|^run$/;
// The built bundle; fixtures; and the files about the manual itself, which hold paths as data
// (a broken pointer on purpose, the old README's section titles).
const SKIP = new Set(['bin/cli-bundle.cjs', 'test/fixtures', 'test/docs', 'scripts/check-manual-coverage.mjs']);
const POINTER = /docs\/manual\/([A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md)(?:#([A-Za-z0-9_-]+))?/g;

function codeFiles(dir: string): string[] {
  const abs = join(root, dir);
  if (!existsSync(abs) || SKIP.has(dir)) return [];
  if (statSync(abs).isFile()) return [dir];
  return readdirSync(abs).flatMap((name) => {
    const rel = `${dir}/${name}`;
    if (SKIP.has(rel)) return [];
    return statSync(join(root, rel)).isDirectory() ? codeFiles(rel) : CODE.test(name) ? [rel] : [];
  });
}

interface Pointer {
  file: string;
  line: number;
  page: string;
  anchor?: string;
}

/** Every pointer at the manual in a text. */
function pointersIn(file: string, text: string): Pointer[] {
  return text.split('\n').flatMap((l, i) => [...l.matchAll(POINTER)].map((m) => ({ file, line: i + 1, page: m[1]!, ...(m[2] ? { anchor: m[2] } : {}) })));
}

const anchorsOf = new Map<string, Set<string>>();
/** Why a pointer leads nowhere, or undefined when it leads to its page (and heading). */
function brokenPointer(p: Pointer, manual = join(root, 'docs', 'manual')): string | undefined {
  const page = join(manual, ...p.page.split('/'));
  const where = `${p.file}:${p.line}: docs/manual/${p.page}${p.anchor ? `#${p.anchor}` : ''}`;
  if (relative(manual, page).startsWith('..') || !existsSync(page)) return `${where}: no such page`;
  if (!p.anchor) return undefined;
  if (!anchorsOf.has(page)) anchorsOf.set(page, headingAnchors(fromMarkdown(readFileSync(page, 'utf8'))));
  return anchorsOf.get(page)!.has(p.anchor) ? undefined : `${where}: the page has no heading #${p.anchor}`;
}

describe('pointers at the manual in the code', () => {
  const files = DIRS.flatMap(codeFiles);
  const texts = files.map((f) => [f, readFileSync(join(root, f), 'utf8')] as const);

  it('each leads to a page of docs/manual, and to a heading of it when it names one', () => {
    const pointers = texts.flatMap(([f, t]) => pointersIn(f, t));
    expect(pointers.length).toBeGreaterThan(30);
    expect(pointers.filter((p) => p.anchor).length).toBeGreaterThan(5);
    expect(pointers.map((p) => brokenPointer(p)).filter(Boolean)).toEqual([]);
  });

  // README.md keeps the set-up and the tour: a section title in quotes after README is the old manual.
  it('none points at a README section any more', () => {
    const old = texts.flatMap(([f, t]) =>
      t.split('\n').flatMap((l, i) => (/README "|\bsee (the )?README\b(?!\.md)|\(README\)/.test(l) ? [`${f}:${i + 1}: ${l.trim()}`] : [])),
    );
    expect(old).toEqual([]);
  });

  it('the links of README.md, ARCHITECTURE.md and CONTRIBUTING.md lead to files (and headings) that exist', () => {
    const broken: string[] = [];
    for (const doc of ['README.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md']) {
      const text = readFileSync(join(root, doc), 'utf8');
      text.split('\n').forEach((l, i) => {
        for (const m of l.matchAll(/\]\(([^)\s]+)\)/g)) {
          const [target, anchor] = m[1]!.split('#') as [string, string | undefined];
          if (/^[a-z]+:/i.test(target)) continue;
          const file = target ? join(root, target) : join(root, doc);
          if (!existsSync(file)) broken.push(`${doc}:${i + 1}: ${m[1]}: no such file`);
          else if (anchor && !headingAnchors(fromMarkdown(readFileSync(file, 'utf8'))).has(anchor)) broken.push(`${doc}:${i + 1}: ${m[1]}: no such heading`);
        }
      });
    }
    expect(broken).toEqual([]);
  });

  it('names a pointer that leads nowhere: a missing page, a missing heading, a path out of the manual', () => {
    const text = [
      '// see docs/manual/store.md#guarantees-that-are-not-there',
      '// see docs/manual/no-such-page.md',
      '// see docs/manual/../../README.md',
      '// see docs/manual/cli.md#in-scripts-and-at-the-terminal and docs/manual/store.md',
    ].join('\n');
    const found = pointersIn('x.ts', text);
    expect(found.map((p) => brokenPointer(p))).toEqual([
      'x.ts:1: docs/manual/store.md#guarantees-that-are-not-there: the page has no heading #guarantees-that-are-not-there',
      'x.ts:2: docs/manual/no-such-page.md: no such page',
      'x.ts:3: docs/manual/../../README.md: no such page',
      undefined,
      undefined,
    ]);
  });
});
