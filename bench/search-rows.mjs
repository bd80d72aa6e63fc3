// The search thread's work for a new organization-wide query, in a lone process (issue 28 item 6):
// its ranking (`rankOrg`) and the text of the rows shown (`rowDetails`), CPU per query, on a copy
// of an index file, for this build and others (`--vs DIST`: another build's dist/, alternating).
//
//   node bench/search-rows.mjs --index FILE [--vs /work/main/dist] [--words 40] [--rounds 5] [--spaces 100] [--cold]
//
// The rows read are those of the first `--spaces` spaces of the ranking (a first page of
// results: 100 by default, as the API's). `--cold`: each query on a new connection (SQLite's
// cache empty, as for the words a server has not seen; the OS's cache warm).
// The thread's program runs here on the main thread (its `parentPort` a stand-in): the same
// code, without messages. Words as bench/search-scale.mjs's (bench/text.mjs), snippet terms with
// their stems as a search makes them.
import { createRequire } from 'node:module';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { queryWord } from './text.mjs';

const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
const index = opt('index');
if (!index) throw new Error('--index FILE (an organization index, e.g. <seed>/data/search/<org>.sqlite)');
const builds = [resolve(join(import.meta.dirname, '..', 'dist')), ...argv.flatMap((a, i) => (a === '--vs' ? [resolve(argv[i + 1])] : []))];
const nWords = Number(opt('words', 40));
const rounds = Number(opt('rounds', 5));
const shownSpaces = Number(opt('spaces', 100));
const cold = argv.includes('--cold');
const require = createRequire(import.meta.url);
const { stemmer } = await import('stemmer');

/** A build's thread program, its ops callable here. */
async function thread(dist) {
  const w = await import(pathToFileURL(join(dist, 'src', 'search', 'worker.js')).href);
  let handler;
  let result;
  const parentPort = { on: (_, fn) => (handler = fn), postMessage: (m) => (result = m) };
  const sqlite = require.resolve(w.SQLITE_PACKAGE);
  // Builds before the rows' pages were given (rowDetails(key, file, rowids, terms, bodyMax)).
  const firsts = readFileSync(join(dist, 'src', 'search', 'worker.js'), 'utf8').includes('rowDetails(key, file, rowids, firsts,');
  w.indexWorker((id) => (id === 'node:worker_threads' ? { parentPort, workerData: { sqlite, schema: 8 } } : require(id)));
  return (op, ...args) => {
    if (op === 'rowDetails' && !firsts) args.splice(3, 1);
    handler({ id: 1, op, args });
    if (result.error) throw new Error(result.error.message);
    return result.result;
  };
}

const dir = mkdtempSync(join(tmpdir(), 'search-rows-'));
try {
  const words = Array.from({ length: nWords }, queryWord);
  const per = builds.map(() => ({ rank: [], rows: [], n: 0 }));
  const calls = [];
  const answers = new Map();
  for (const [b, dist] of builds.entries()) {
    const file = join(dir, `${b}.sqlite`);
    copyFileSync(index, file);
    const call = await thread(dist);
    const spaces = call('revs', 'k', file).map((r) => r[0]);
    calls.push({ call, file, spaces, dist });
  }
  const cpu = () => {
    const c = process.cpuUsage();
    return (c.user + c.system) / 1000;
  };
  for (let round = 0; round < rounds; round++)
    for (const [b, { call, file, spaces, dist }] of calls.entries()) {
      for (const word of words) {
        const match = `"${word}"*`;
        const terms = [...new Set([word, stemmer(word)])];
        // A new ranking each time: no kept one (`known` undefined, the thread keeps none).
        if (cold) call('close', 'k');
        let t = cpu();
        const got = call('rankOrg', 'k', file, match, spaces, 500);
        if (got.tiePass) per[b].ties = (per[b].ties ?? 0) + 1;
        const rankMs = cpu() - t;
        const rows = got.rows;
        // The rows of the first spaces (in the order of their best row), grouped as an answer reads them.
        const bySpace = new Map();
        rows.r.forEach((_, i) => bySpace.set(rows.space[i], [...(bySpace.get(rows.space[i]) ?? []), i]));
        const at = [...bySpace.values()].slice(0, shownSpaces).flat();
        const rowids = at.map((i) => rows.r[i]);
        const firsts = at.map((i) => rows.r[i] - rows.sec[i]);
        t = cpu();
        const details = call('rowDetails', 'k', file, rowids, firsts, terms, 0);
        const rowsMs = cpu() - t;
        // The same answers from every build (the first round's).
        if (round === 0) {
          const seen = JSON.stringify([rows, details]);
          if (b === 0) answers.set(word, seen);
          else if (answers.get(word) !== seen) throw new Error(`${dist}: another ranking or text for ${word}`);
        }
        if (round > 0) {
          per[b].rank.push(rankMs);
          per[b].rows.push(rowsMs);
          per[b].n += details.filter(Boolean).length;
        }
      }
    }
  const sum = (xs) => xs.reduce((a, x) => a + x, 0);
  for (const [b, dist] of builds.entries()) {
    const p = per[b];
    const q = p.rank.length;
    process.stdout.write(
      `${dist}: rank ${(sum(p.rank) / q).toFixed(2)} ms, rowDetails ${(sum(p.rows) / q).toFixed(2)} ms a query (${(p.n / q).toFixed(0)} rows, ${q} queries, ${p.ties ?? 0} rankings with a second pass)\n`,
    );
  }
  const counts = calls[0].call('counts');
  if (counts) process.stdout.write(`this build's thread: ${JSON.stringify(counts)}\n`);
  if (builds.length > 1)
    process.stdout.write(
      `rowDetails this / ${builds[1]}: ${(sum(per[0].rows) / sum(per[1].rows)).toFixed(2)}, rank ${(sum(per[0].rank) / sum(per[1].rank)).toFixed(2)}\n`,
    );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
