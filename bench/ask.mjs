// Ask (docs/manual/ask.md#figures): time to the first streamed event of an extractive answer
// (streamAskInOrganization) over an organization of 20,000 pages (4 spaces of 5,000, generated
// text), its index warm, against a plain organization search of the same words
// (searchOrganizationContent) in the same run: what answering adds to searching.
// `node bench/ask.mjs [--quick]` (after `npm run build`).
import { createServer } from 'node:http';
import { request } from 'undici';
import { median } from './lib.mjs';
import { buildSpace, open } from './seed.mjs';
import { queryWord } from './text.mjs';

const QUICK = process.argv.includes('--quick');
const SPACES = 4;
const PAGES = QUICK ? 1000 : 5000;
const RUNS = QUICK ? 10 : 30;
const TARGET_MS = 300;

const { ctx, call, org } = await open(undefined, 'gb_api_bench_ask');
const t0 = performance.now();
for (let i = 0; i < SPACES; i++) await buildSpace(call, org, i, PAGES);
const seedMs = performance.now() - t0;
const { createHandler } = await import('../dist/server/app.js');
const server = createServer(createHandler(ctx));
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;
const auth = { authorization: 'Bearer gb_api_bench_ask' };

/** Milliseconds to the first byte of the body (the first event of a stream). */
async function firstByte(path) {
  const t = performance.now();
  const res = await request(base + path, { headers: auth });
  for await (const _ of res.body) break;
  const ms = performance.now() - t;
  res.body.destroy();
  if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode}`);
  return ms;
}
const questions = Array.from({ length: RUNS }, () => `how do I ${queryWord()} the ${queryWord()} with ${queryWord()}?`);
const t1 = performance.now();
await firstByte(`/v1/orgs/${org}/search?query=${encodeURIComponent(questions[0].split(' ')[3])}`); // builds the index
const indexMs = performance.now() - t1;
const ask = [];
const search = [];
for (const q of questions) {
  const words = q
    .replace(/^how do I | the | with |\?$/g, ' ')
    .trim()
    .split(/\s+/);
  ask.push(await firstByte(`/v1/orgs/${org}/ask/stream?query=${encodeURIComponent(q)}`));
  search.push(await firstByte(`/v1/orgs/${org}/search?query=${encodeURIComponent(words[0])}`));
}
server.close();
await ctx.store.close();
const a = median(ask);
const s = median(search);
console.log(
  `ask ${SPACES * PAGES} pages (seeded in ${(seedMs / 1000).toFixed(0)} s, index built in ${(indexMs / 1000).toFixed(1)} s): first event median ${a.toFixed(1)} ms, worst ${Math.max(...ask).toFixed(1)} ms; ` +
    `organization search median ${s.toFixed(1)} ms; ask/search ${(a / s).toFixed(2)}x (target first event <= ${TARGET_MS} ms)`,
);
process.exitCode = a <= TARGET_MS ? 0 : 1;
