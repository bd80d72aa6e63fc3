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

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const QUICK = process.argv.includes('--quick');
const BIG = QUICK ? 2000 : 5000;
const SMALL = 500;
const TOKEN = 'bench-content-token';
const TARGETS = { searchMedianMs: 50, searchRatio: 5, batchMs: 3000, editOverStoreWrite: 3, afterMergeMs: 500 };

// Text with a natural (Zipf) word distribution over a 5,000-word vocabulary: a few words are
// everywhere, most are rare, as in real documentation.
let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const SYLLABLES = 'ka lo mi ne ru ta shi vo pe la di gor an el um ist ra fen bo ze'.split(' ');
const WORDS = Array.from({ length: 5000 }, (_, i) => {
  let w = '';
  for (let n = i + 1; n > 0; n = Math.floor(n / SYLLABLES.length)) w += SYLLABLES[n % SYLLABLES.length];
  return w;
});
const ZIPF = (() => {
  const w = WORDS.map((_, i) => 1 / (i + 1));
  const total = w.reduce((a, b) => a + b, 0);
  let acc = 0;
  return w.map((x) => (acc += x / total));
})();
const pick = () => {
  const r = rand();
  let lo = 0;
  let hi = ZIPF.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ZIPF[mid] < r) lo = mid + 1;
    else hi = mid;
  }
  return WORDS[lo];
};
/** A query word of middle frequency (ranks 50..1000), what people search for. */
const queryWord = () => WORDS[50 + Math.floor(rand() * 950)];
const sentence = (n) => Array.from({ length: n }, pick).join(' ');
const body = (i) => `${sentence(40)}.\n\n## Setup ${i}\n\n${sentence(60)} unique${i}.\n\n## Details\n\n${sentence(80)}.\n`;

async function startServe(dataDir) {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'run.js'), 'serve', '--port', '0', '--data', dataDir, '--quiet'], { env: { ...process.env, DOCS_BOOTSTRAP_TOKEN: TOKEN }, stdio: ['ignore', 'pipe', 'inherit'] });
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
  const res = await fetch(base + path, { method, headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
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
  for (let s = 0; s < n / 50; s++) {
    const changes = [{ operation: 'insert_page', ref: `s${s}`, title: `Section ${s} ${pick()}`, slug: `section-${s}`, document: { markdown: body(s * 50) } }];
    for (let i = 1; i < 50; i++) changes.push({ operation: 'insert_page', into: `s${s}`, title: `Page ${s * 50 + i} ${pick()} ${pick()}`, slug: `page-${i}`, document: { markdown: body(s * 50 + i) } });
    await api(base, 'POST', `/v1/spaces/${space}/change-requests/${cr.id}/content`, { changes });
  }
  await api(base, 'POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`);
  return space;
}

async function measure(base, org, n) {
  const [buildMs, space] = await timed(() => buildSpace(base, org, n));
  const queries = Array.from({ length: 25 }, (_, i) => (i % 5 === 0 ? `unique${Math.floor(rand() * n)}` : i % 2 ? queryWord() : `${queryWord()} ${queryWord()}`));
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
    edits.push((await timed(() => api(base, 'POST', `/v1/spaces/${space}/change-requests/${cr.id}/content`, { changes: [{ operation: 'update_page', page: target, document: { markdown: body(i) + ` edit${i}` } }] })))[0]);
  }
  const batch = Array.from({ length: 50 }, (_, i) => ({ operation: 'insert_page', title: `Batch ${i}`, document: { markdown: body(i) } }));
  const [batchMs] = await timed(() => api(base, 'POST', `/v1/spaces/${space}/change-requests/${cr.id}/content`, { changes: batch }));
  // Merged, the space's index moves to the new revision by re-indexing the 51 changed pages only.
  await api(base, 'POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`);
  const [afterMergeMs, found] = await timed(() => api(base, 'GET', `/v1/spaces/${space}/search?query=Batch&limit=10`));
  if (found.count < 50) throw new Error(`search after merge found ${found.count} of the 50 new pages`);
  return { n, buildMs, indexMs, searchMs: median(times), editMs: median(edits), writeMs: median(writes), batchMs, afterMergeMs };
}

const dir = mkdtempSync(join(tmpdir(), 'docs-bench-content-'));
let served;
let failed = false;
try {
  served = await startServe(join(dir, 'data'));
  const org = (await api(served.url, 'GET', '/v1/orgs')).items[0].id;
  const small = await measure(served.url, org, SMALL);
  const big = await measure(served.url, org, BIG);
  const f = (x) => x.toFixed(1);
  for (const r of [small, big]) {
    console.log(`content ${r.n} pages: built in ${f(r.buildMs)} ms; first search (index build) ${f(r.indexMs)} ms; search median ${f(r.searchMs)} ms; page edit ${f(r.editMs)} ms vs store write ${f(r.writeMs)} ms (${f(r.editMs / r.writeMs)}x); 50-change batch ${f(r.batchMs)} ms; first search after merging it ${f(r.afterMergeMs)} ms`);
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
} catch (err) {
  console.error(err);
  failed = true;
} finally {
  served?.child.kill('SIGTERM');
  await new Promise((r) => (served ? served.child.on('exit', r) : r()));
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
