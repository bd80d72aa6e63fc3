// Content figures, through a real `docs serve` on a data directory (HTTP + store + fsync):
// - search: median ms per query on a space of 5,000 generated pages, and its ratio to the same
//   queries on a 500-page space (the index is per revision, built on first search, reported apart);
// - authoring: the time of one 50-change batch (insert_page) on the 5,000-page space, and of the
//   first search once it is merged (the index follows by re-indexing the changed pages);
// - the cost of one page edit against the cost of the store writing the same shard (creating a
//   change request: one small row in the space's shard), on both spaces: an edit must cost about
//   what writing the store costs, whatever the number of pages.
// Prints each figure with its target; exits 1 on a miss.
//
//   node bench/content.mjs [--quick]     (--quick: 2,000 pages instead of 5,000)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { body, queryWord, rand, sectionChanges } from './text.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const QUICK = process.argv.includes('--quick');
const BIG = QUICK ? 2000 : 5000;
const SMALL = 500;
const TOKEN = 'bench-content-token';
const MERGE_SMALL = 50;
const MERGE_RUNS = 7;
const TARGETS = { searchMedianMs: 50, searchRatio: 3, batchMs: 3000, editOverStoreWrite: 3, afterMergeMs: 500, mergeRatio: 2 };

async function startServe(dataDir) {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'run.cjs'), 'serve', '--port', '0', '--data', dataDir, '--quiet'], {
    env: { ...process.env, DOCS_BOOTSTRAP_TOKEN: TOKEN },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /API at (http:\/\/\S+)\/v1/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`docs serve exited ${code}`)));
  });
  return { child, url };
}

async function api(base, method, path, body) {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function timed(fn) {
  const t = performance.now();
  const r = await fn();
  return [performance.now() - t, r];
}

/** A space of n pages: n/50 sections of 50 pages (one parent, 49 children), merged. */
async function buildSpace(base, org, n) {
  const space = (await api(base, 'POST', `/v1/orgs/${org}/spaces`, { title: `Bench ${n}` })).id;
  const cr = await api(base, 'POST', `/v1/spaces/${space}/change-requests`, { subject: 'seed' });
  for (let s = 0; s < n / 50; s++) await api(base, 'POST', `/v1/spaces/${space}/change-requests/${cr.id}/content`, { changes: sectionChanges(s) });
  await api(base, 'POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`);
  return space;
}

async function measure(base, org, n) {
  const [buildMs, space] = await timed(() => buildSpace(base, org, n));
  const queries = Array.from({ length: 25 }, (_, i) =>
    i % 5 === 0 ? `unique${Math.floor(rand() * n)}` : i % 2 ? queryWord() : `${queryWord()} ${queryWord()}`,
  );
  const [indexMs] = await timed(() => api(base, 'GET', `/v1/spaces/${space}/search?query=${encodeURIComponent(queries[0])}&limit=10`));
  for (const q of queries.slice(0, 5)) await api(base, 'GET', `/v1/spaces/${space}/search?query=${encodeURIComponent(q)}&limit=10`); // warm-up
  const times = [];
  for (const q of queries) times.push((await timed(() => api(base, 'GET', `/v1/spaces/${space}/search?query=${encodeURIComponent(q)}&limit=10`)))[0]);
  // One page edit vs. one bare store write of the same shard (a change request row), median of 7.
  const pages = (await api(base, 'GET', `/v1/spaces/${space}/content/pages`)).pages;
  const target = pages[0].pages[3].id;
  const edits = [];
  const writes = [];
  const cr = await api(base, 'POST', `/v1/spaces/${space}/change-requests`, { subject: 'edits' });
  for (let i = 0; i < 7; i++) {
    writes.push((await timed(() => api(base, 'POST', `/v1/spaces/${space}/change-requests`, { subject: `w${i}` })))[0]);
    edits.push(
      (
        await timed(() =>
          api(base, 'POST', `/v1/spaces/${space}/change-requests/${cr.id}/content`, {
            changes: [{ operation: 'update_page', page: target, document: { markdown: body(i) + ` edit${i}` } }],
          }),
        )
      )[0],
    );
  }
  const batch = Array.from({ length: 50 }, (_, i) => ({ operation: 'insert_page', title: `Batch ${i}`, document: { markdown: body(i) } }));
  const [batchMs] = await timed(() => api(base, 'POST', `/v1/spaces/${space}/change-requests/${cr.id}/content`, { changes: batch }));
  // Merged, the space's index moves to the new revision by re-indexing the 51 changed pages only.
  await api(base, 'POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`);
  const [afterMergeMs, found] = await timed(() => api(base, 'GET', `/v1/spaces/${space}/search?query=Batch&limit=10`));
  if (found.count < 50) throw new Error(`search after merge found ${found.count} of the 50 new pages`);
  return { n, buildMs, indexMs, searchMs: median(times), editMs: median(edits), writeMs: median(writes), batchMs, afterMergeMs };
}

/**
 * Merging a one-page change request, median of MERGE_RUNS: each run opens a change request,
 * edits one page (updateChangeRequestContent) and merges it; only the merge is timed. Nothing
 * else moves the space meanwhile, so the merge is clean whether it fast-forwards or merges three
 * ways.
 */
async function measureMerge(base, space) {
  const pages = (await api(base, 'GET', `/v1/spaces/${space}/content/pages`)).pages;
  const target = pages[0].pages[1].id;
  const times = [];
  for (let i = 0; i < MERGE_RUNS; i++) {
    const cr = await api(base, 'POST', `/v1/spaces/${space}/change-requests`, { subject: `merge ${i}` });
    await api(base, 'POST', `/v1/spaces/${space}/change-requests/${cr.id}/content`, {
      changes: [{ operation: 'update_page', page: target, document: { markdown: body(i) + ` merged${i}` } }],
    });
    const [ms, merged] = await timed(() => api(base, 'POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`));
    if (merged?.result && merged.result !== 'merge') throw new Error(`merge ${i}: ${JSON.stringify(merged)}`);
    times.push(ms);
  }
  const found = await api(base, 'GET', `/v1/spaces/${space}/search?query=merged${MERGE_RUNS - 1}&limit=10`);
  if (found.count !== 1) throw new Error(`the last merged edit is not in the space (search found ${found.count})`);
  return median(times);
}

const dir = mkdtempSync(join(tmpdir(), 'docs-bench-content-'));
let served;
let failed = false;
try {
  served = await startServe(join(dir, 'data'));
  const org = (await api(served.url, 'GET', '/v1/orgs')).items[0].id;
  const small = await measure(served.url, org, SMALL);
  const big = await measure(served.url, org, BIG);
  // Merges: the big space vs a small one, taking turns so a busy spell falls on both.
  const tiny = await buildSpace(served.url, org, MERGE_SMALL);
  const bigSpace = (await api(served.url, 'GET', `/v1/orgs/${org}/spaces`)).items.find((s) => s.title === `Bench ${BIG}`).id;
  const merges = { small: [], big: [] };
  for (let round = 0; round < 3; round++) {
    merges.small.push(await measureMerge(served.url, tiny));
    merges.big.push(await measureMerge(served.url, bigSpace));
  }
  const mergeSmall = median(merges.small);
  const mergeBig = median(merges.big);
  const f = (x) => x.toFixed(1);
  for (const r of [small, big]) {
    console.log(
      `content ${r.n} pages: built in ${f(r.buildMs)} ms; first search (index build) ${f(r.indexMs)} ms; search median ${f(r.searchMs)} ms; page edit ${f(r.editMs)} ms vs store write ${f(r.writeMs)} ms (${f(r.editMs / r.writeMs)}x); 50-change batch ${f(r.batchMs)} ms; first search after merging it ${f(r.afterMergeMs)} ms`,
    );
  }
  const check = (label, value, target, unit = '') => {
    const ok = value <= target;
    if (!ok) failed = true;
    console.log(`${ok ? 'ok  ' : 'MISS'} ${label}: ${value.toFixed(2)}${unit} (target <= ${target}${unit})`);
  };
  check(`search median on ${BIG} pages`, big.searchMs, TARGETS.searchMedianMs, ' ms');
  check(`search ${BIG}/${SMALL} pages ratio`, big.searchMs / small.searchMs, TARGETS.searchRatio, 'x');
  check(`first search after a merge, ${BIG} pages`, big.afterMergeMs, TARGETS.afterMergeMs, ' ms');
  check(`50-change batch on ${BIG} pages`, big.batchMs, TARGETS.batchMs, ' ms');
  check(`page edit / store write, ${BIG} pages`, big.editMs / big.writeMs, TARGETS.editOverStoreWrite, 'x');
  console.log(`merge of a one-page change request: ${f(mergeBig)} ms on ${BIG} pages, ${f(mergeSmall)} ms on ${MERGE_SMALL} pages`);
  check(`merge ${BIG}/${MERGE_SMALL} pages ratio`, mergeBig / mergeSmall, TARGETS.mergeRatio, 'x');
} catch (err) {
  console.error(err);
  failed = true;
} finally {
  served?.child.kill('SIGTERM');
  await new Promise((r) => (served ? served.child.on('exit', r) : r()));
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
