// Checks that moving README.md into docs/manual/ (and ARCHITECTURE.md, CONTRIBUTING.md) lost no
// text: every non-empty line of README.md as it was at REF must appear in one of the new files.
// Lines are compared trimmed, headings without their `#` marks (a section's heading moves up a
// level when it becomes a page), and a line counts as found when a line of the new files contains
// it (a heading may gain words as a page title). Prints the figure and every line not found.
// The performance diary's history was left out on purpose (the commit messages hold it).
//
//   node scripts/check-manual-coverage.mjs REF      e.g. the commit before the split
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ref = process.argv[2];
if (!ref) {
  console.error('usage: node scripts/check-manual-coverage.mjs REF (the commit whose README.md is the old one)');
  process.exit(2);
}
// A cross-reference that became a link counts as the same text: `README "Store"` and `[Store](store.md)`
// both read `"Store"`.
const norm = (l) =>
  l
    .trim()
    .replace(/^#{1,6}\s+/, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '"$1"')
    .replace(/README "/g, '"');
const old = execFileSync('git', ['show', `${ref}:README.md`], { cwd: root, encoding: 'utf8' }).split('\n');

const files = ['README.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md'];
const walk = (dir) => {
  for (const name of readdirSync(join(root, dir))) {
    const rel = `${dir}/${name}`;
    if (statSync(join(root, rel)).isDirectory()) walk(rel);
    else if (name.endsWith('.md')) files.push(rel);
  }
};
walk('docs/manual');
const now = new Set(files.flatMap((f) => readFileSync(join(root, f), 'utf8').split('\n').map(norm)).filter(Boolean));
const nowList = [...now];

let total = 0;
const missing = [];
old.forEach((line, i) => {
  const l = norm(line);
  if (!l) return;
  total++;
  if (now.has(l) || nowList.some((n) => n.includes(l))) return;
  missing.push(`${i + 1}: ${line}`);
});
const found = total - missing.length;
console.log(
  `${found} of ${total} non-empty lines of README.md at ${ref} are in the new files (${((100 * found) / total).toFixed(1)}%), searched in ${files.length} files.`,
);
if (missing.length) console.log(`Not found:\n${missing.join('\n')}`);
