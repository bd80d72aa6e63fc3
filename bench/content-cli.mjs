// Docs as code in the CLI, in-process on a data directory (issue 28 item 2, issue 30's figures):
// `content push` of a one-line change (with --merge) from 200 and 2,000 pages and of an unchanged
// 2,000-page folder against `spaces list` on the same store, `content pull` of 1,000 pages
// against `spaces list`, and `content check` of a 1,000-page folder and a no-op `content push` of
// 1,000 pages against `node -e 0` (kept digest), and the same right after a merged change (reported).
// Ratios of medians within one run (lib.mjs compareCommands, alternating).
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, compareCommands, compareToBareNode, removeDir, tempDir, timeNode } from './lib.mjs';
import { body } from './text.mjs';

/** A folder of `n` pages in sections of 50 (README.md and 49 pages), links written by hand. */
export function writeFolder(dir, n) {
  mkdirSync(dir, { recursive: true });
  for (let s = 0; s < n / 50; s++) {
    const sec = join(dir, `section-${s}`);
    mkdirSync(sec, { recursive: true });
    writeFileSync(join(sec, 'README.md'), `# Section ${s}\n\n${body(s * 50)}\nSee [the first page](page-1.md).\n`);
    for (let i = 1; i < 50; i++)
      writeFileSync(
        join(sec, `page-${i}.md`),
        `# Page ${s * 50 + i}\n\n${body(s * 50 + i)}\nBack to [the section](README.md), next [page](page-${(i % 49) + 1}.md).\n`,
      );
  }
  return dir;
}

const json = (out) => JSON.parse(out);

export async function contentRows({ env, record, log, runs }) {
  const data = tempDir('content-cli');
  const cli = (...args) => timeNode([BIN, ...args, '--data', data], env);
  cli('spaces', 'list', '--json'); // initializes the store (owner)
  const space = (size) => json(cli('spaces', 'create', '--title', `Push ${size}`, '--json').stdout).id;
  const list = [BIN, 'spaces', 'list', '--json', '--data', data];
  const folders = {};
  for (const size of [200, 2000, 1000]) {
    const dir = writeFolder(tempDir(`folder-${size}`), size);
    const id = space(size);
    const t = Date.now();
    const first = json(cli('content', 'push', dir, '--space', id, '--merge', '--json').stdout);
    if (first.added !== size) throw new Error(`first push of ${size} pages added ${first.added}`);
    log(`  seeded ${size} pages by a first push in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    folders[size] = { dir, id };
  }
  const push = (size) => [BIN, 'content', 'push', folders[size].dir, '--space', folders[size].id, '--merge', '--json', '--data', data];
  const edit = (size) => (i) => appendFileSync(join(folders[size].dir, 'section-1', 'page-7.md'), `\nEdit ${i} of the bench.\n`);
  const updatedOne = (out) => {
    const r = json(out);
    if (r.updated !== 1 || !r.merged) throw new Error(`a one-line change: ${out.slice(0, 300)}`);
  };
  const unchanged = (out) => {
    if (json(out).changeRequest !== null) throw new Error(`an unchanged folder: ${out.slice(0, 300)}`);
  };
  const rows = [
    { figure: 'content push, one-line change of 200 pages, --merge / spaces list', a: push(200), beforeA: edit(200), checkA: updatedOne, target: 2 },
    { figure: 'content push, one-line change of 2,000 pages, --merge / spaces list', a: push(2000), beforeA: edit(2000), checkA: updatedOne, target: 3 },
    { figure: 'content push, unchanged 2,000 pages / spaces list', a: push(2000), checkA: unchanged, target: 2 },
  ];
  for (const r of rows) {
    log(`\n[content] ${r.figure}, ${runs} runs each, alternating`);
    const c = compareCommands(r.a, list, env, { runs, warmup: 1, checkA: r.checkA, beforeA: r.beforeA });
    record(r.figure, c.ratio, {
      target: `<= ${r.target.toFixed(1)}`,
      pass: c.ratio <= r.target,
      context: `median ${c.aMs.toFixed(1)} ms vs ${c.bMs.toFixed(1)} ms`,
    });
  }
  log(`\n[content] content pull of 1,000 pages / spaces list, ${runs} runs each, alternating`);
  const out = tempDir('pull');
  const pull = compareCommands([BIN, 'content', 'pull', out, '--space', folders[1000].id, '--force', '--json', '--data', data], list, env, {
    runs,
    warmup: 1,
    checkA: (o) => {
      if (json(o).pages !== 1000) throw new Error(`pull: ${o.slice(0, 300)}`);
    },
  });
  record('content pull of 1,000 pages / spaces list', pull.ratio, {
    target: '<= 3.0',
    pass: pull.ratio <= 3,
    context: `median ${pull.aMs.toFixed(1)} ms vs ${pull.bMs.toFixed(1)} ms`,
  });
  log(`\n[content] content check of a 1,000-page folder / node -e 0, ${runs} runs each, alternating`);
  const check = compareToBareNode([BIN, 'content', 'check', folders[1000].dir, '--json'], env, {
    runs,
    warmup: 1,
    check: (o) => {
      if (json(o).counts?.pages !== 1000) throw new Error(`check: ${o.slice(0, 300)}`);
    },
  });
  record('content check of 1,000 pages / node -e 0', check.ratio, {
    target: '<= 3.0',
    pass: check.ratio <= 3,
    context: `median ${check.cmdMs.toFixed(1)} ms vs ${check.baseMs.toFixed(1)} ms`,
  });
  log(`\n[content] no-op content push of 1,000 pages / node -e 0, ${runs} runs each, alternating`);
  const noop = compareToBareNode(push(1000), env, { runs, warmup: 1, check: unchanged });
  record('content push, unchanged 1,000 pages / node -e 0', noop.ratio, {
    target: '<= 3.0',
    pass: noop.ratio <= 3,
    context: `median ${noop.cmdMs.toFixed(1)} ms vs ${noop.baseMs.toFixed(1)} ms`,
  });
  // What a CI job's first unchanged push after a merge waits for: the digest the merging push
  // kept (POST /_docs/push-digest). Before each run, untimed: a one-line change pushed and merged.
  log(`\n[content] no-op content push of 1,000 pages right after a merged change / node -e 0, ${runs} runs each, alternating`);
  const afterMerge = compareCommands(push(1000), ['-e', '0'], env, {
    runs,
    warmup: 1,
    checkA: unchanged,
    beforeA: (i) => {
      appendFileSync(join(folders[1000].dir, 'section-1', 'page-7.md'), `\nMerged change ${i} of the bench.\n`);
      updatedOne(cli('content', 'push', folders[1000].dir, '--space', folders[1000].id, '--merge', '--json').stdout);
    },
  });
  record('content push, unchanged 1,000 pages, first after a merged push / node -e 0', afterMerge.ratio, {
    target: 'report',
    pass: true,
    context: `median ${afterMerge.aMs.toFixed(1)} ms vs ${afterMerge.bMs.toFixed(1)} ms; kept digest ${noop.cmdMs.toFixed(1)} ms`,
  });
  for (const f of Object.values(folders)) removeDir(f.dir);
  removeDir(out);
  removeDir(data);
}
