import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/kernel/root.js';

// The true-process tests (locks between processes, signals, crashes, the code cache, stdio MCP,
// TTY, --version, the bundle's smoke test) run the BUILT CLI (bin/run.js -> dist/cli), the one
// thing `npm test` does not build. A dist/ older than the source would test old code without a
// word: those tests fail instead, saying to build (`npm ci` builds; so does `npm run build`).

const root = packageRoot();
const BUNDLE = join(root, 'dist', 'cli', 'docs.cjs');

function newestSource(): { file: string; mtime: number } {
  let best = { file: '', mtime: 0 };
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts')) {
        const m = statSync(p).mtimeMs;
        if (m > best.mtime) best = { file: p, mtime: m };
      }
    }
  };
  for (const d of ['src', 'server', 'commands']) walk(join(root, d));
  return best;
}

let verdict: string | null | undefined;

/** Why the built CLI cannot be tested (absent or older than the source), or null when it can. */
export function builtProblem(): string | null {
  if (verdict !== undefined) return verdict;
  if (!existsSync(BUNDLE)) return (verdict = 'dist/ is absent: run `npm run build` (npm ci does) before the tests of the built CLI');
  const src = newestSource();
  const built = statSync(BUNDLE).mtimeMs;
  return (verdict =
    src.mtime > built ? `dist/ is older than ${src.file.slice(root.length + 1)}: run \`npm run build\` before the tests of the built CLI` : null);
}

/** Throws unless dist/ is there and newer than every source file. */
export function requireFreshBuild(): void {
  const problem = builtProblem();
  if (problem) throw new Error(problem);
}
