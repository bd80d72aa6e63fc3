// Throughput of the PostgreSQL store through two `docs serve` processes, against one server on
// the embedded store (a quick measure, not part of `npm run bench`):
//
//   node bench/pg-two-servers.mjs [--seconds N] [--pg postgres://...]
//
// Writes: durable PATCH /v1/spaces/{id} renames at 32 connections (16 per PostgreSQL server),
// (a) every request renaming the same space (bench/run.mjs's write load: both servers contend
// for one shard) and (b) requests spread over 64 spaces. Reads: GET /v1/spaces/{id} at 32
// connections. Embedded: the same loads at 32 connections on one server. Needs a built dist/.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { renames, seedRenameSpaces } from './renames.mjs';
import { BIN, childEnv, load, startChild, stopChild, tempDir } from './lib.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : dflt;
};
const SECONDS = Number(arg('seconds', 5));
const PG = arg('pg', process.env.DOCS_TEST_PG || 'postgres://postgres@127.0.0.1:5432/test');
const TOKEN = 'bench-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const SPACES = 64;
const log = (s = '') => process.stdout.write(s + '\n');

const schema = `bench_two_${randomBytes(4).toString('hex')}`;
const env = childEnv(tempDir('config'), { DOCS_BOOTSTRAP_TOKEN: TOKEN });
const ready = /API at (http:\/\/127\.0\.0\.1:\d+)\/v1/;
const serveArgs = (...more) => [BIN, 'serve', '--port', '0', '--quiet', ...more];

/** Runs `fn(server)` on every server at once; sums the 200s over the longest duration. */
async function together(servers, fn) {
  const rs = await Promise.all(servers.map(fn));
  const seconds = Math.max(...rs.map((r) => r.seconds));
  const ok = rs.reduce((s, r) => s + (r.ok ?? r.statuses?.['200'] ?? 0), 0);
  return { rps: ok / seconds, parts: rs };
}

const fmt = (r) =>
  `${Math.round(r.rps)}/s [${r.parts.map((p) => `${JSON.stringify(p.statuses)} p50 ${p.p50} p99 ${p.p99} ms${p.errors ? ` ${p.errors} errors` : ''}`).join('; ')}]`;

async function main() {
  const embedded = await startChild('docs serve (embedded)', serveArgs('--data', tempDir('embedded')), { env, ready });
  const blobs = tempDir('blobs');
  const store = `${PG}${PG.includes('?') ? '&' : '?'}schema=${schema}`;
  const p1 = await startChild('docs serve (pg 1)', serveArgs('--store', store, '--blobs', blobs), { env, ready });
  const p2 = await startChild('docs serve (pg 2)', serveArgs('--store', store, '--blobs', blobs), { env, ready });
  try {
    const eIds = await seedRenameSpaces(embedded.url, SPACES);
    const pIds = await seedRenameSpaces(p1.url, SPACES);
    log(`${SECONDS} s per load, 32 connections (16 per PostgreSQL server), ${SPACES} spaces per store; 1 s warm-up each`);

    const readOn = (base, ids, connections, seconds = SECONDS) => load({ url: `${base}/v1/spaces/${ids[0]}`, connections, duration: seconds, headers: AUTH });
    await readOn(embedded.url, eIds, 32, 1);
    const eReads = await together([embedded], (s) => readOn(s.url, eIds, 32));
    await together([p1, p2], (s) => readOn(s.url, pIds, 16, 1));
    const pReads = await together([p1, p2], (s) => readOn(s.url, pIds, 16));
    log(`reads  GET /v1/spaces/{id}: embedded ${fmt(eReads)}`);
    log(`                           PostgreSQL, two servers ${fmt(pReads)}`);
    log(`       PostgreSQL / embedded: ${(pReads.rps / eReads.rps).toFixed(2)}x (target >= 0.5)`);

    for (const [label, eSet, pSet] of [
      ['one space', eIds.slice(0, 1), pIds.slice(0, 1)],
      [`${SPACES} spaces`, eIds, pIds],
    ]) {
      await renames(embedded.url, eSet, 32, 1);
      const eWrites = await together([embedded], (s) => renames(s.url, eSet, 32, SECONDS));
      await together([p1, p2], (s) => renames(s.url, pSet, 16, 1));
      const pWrites = await together([p1, p2], (s) => renames(s.url, pSet, 16, SECONDS));
      log(`writes PATCH /v1/spaces/{id}, ${label}: embedded ${fmt(eWrites)}`);
      log(`                           PostgreSQL, two servers ${fmt(pWrites)} (target >= 1000/s)`);
      log(`       PostgreSQL / embedded: ${(pWrites.rps / eWrites.rps).toFixed(2)}x`);
    }
    const c = new pg.Client({ connectionString: PG });
    await c.connect();
    const s = await c.query(`SELECT xact_commit, xact_rollback FROM pg_stat_database WHERE datname = current_database()`);
    log(`PostgreSQL database totals (all clients of the database, since its statistics were reset): ${JSON.stringify(s.rows[0])}`);
    await c.end();
  } finally {
    await Promise.all([stopChild(embedded.child), stopChild(p1.child), stopChild(p2.child)]);
    const c = new pg.Client({ connectionString: PG });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`);
    await c.end();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
