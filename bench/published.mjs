// Published-site figures, through a real `docs serve` on a data directory:
// - requests/s of a published content page (HTML) at 32 connections, against a bare node:http
//   server answering the same bytes (target >= 0.5; warm: the page was rendered once before);
// - the bytes a content page costs a visitor: HTML (inline CSS) + the site script, gzip (target <= 50 kB);
// - the first render of a page of a 5,000-page space (the site's index of that space is built on
//   it: no earlier request touched the space), in ms (target <= 50) and against a warm request.
// Prints each figure with its target; exits 1 on a miss.
//
//   node bench/published.mjs [--quick]     (--quick: 2,000 pages, shorter loads)
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { childEnv, load, removeDir, startBareServer, startDocsServe, stopChild, tempDir } from './lib.mjs';
import { sectionChanges } from './text.mjs';

const QUICK = process.argv.includes('--quick');
const BIG = QUICK ? 2000 : 5000;
const SECONDS = QUICK ? 2 : 5;
const ROUNDS = 4;
const TOKEN = 'bench-published-token';
const TARGETS = { readRatio: 0.5, firstRenderMs: 50, pageKb: 50 };

async function api(base, method, path, body) {
  const res = await fetch(base + path, { method, headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

async function spaceOf(base, org, n, title) {
  const space = (await api(base, 'POST', `/v1/orgs/${org}/spaces`, { title })).id;
  const cr = await api(base, 'POST', `/v1/spaces/${space}/change-requests`, { subject: 'seed' });
  for (let s = 0; s < n / 50; s++) await api(base, 'POST', `/v1/spaces/${space}/change-requests/${cr.id}/content`, { changes: sectionChanges(s) });
  await api(base, 'POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`);
  return space;
}

async function site(base, org, space, title) {
  const s = await api(base, 'POST', `/v1/orgs/${org}/sites`, { title, spaces: [space] });
  return (await api(base, 'POST', `/v1/orgs/${org}/sites/${s.id}/publish`)).urls.published;
}

async function timedGet(url) {
  const t = performance.now();
  const res = await fetch(url);
  const bytes = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
  return { ms: performance.now() - t, bytes, type: res.headers.get('content-type') };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const dir = tempDir('published');
const env = childEnv(tempDir('config'), { DOCS_BOOTSTRAP_TOKEN: TOKEN });
let served;
let bare;
let failed = false;
const check = (label, value, target, unit, atLeast = false) => {
  const ok = atLeast ? value >= target : value <= target;
  if (!ok) failed = true;
  console.log(`${ok ? 'ok  ' : 'MISS'} ${label}: ${value.toFixed(2)}${unit} (target ${atLeast ? '>=' : '<='} ${target}${unit})`);
};
try {
  served = await startDocsServe(join(dir, 'data'), env);
  const base = served.url;
  const org = (await api(base, 'GET', '/v1/orgs')).items[0].id;
  // A small site first: the renderer (unified, shiki) is loaded by its first page, not timed below.
  const small = await site(base, org, await spaceOf(base, org, 50, 'Small'), 'Small Site');
  const pages = (await api(base, 'GET', `/v1/spaces/${(await api(base, 'GET', `/v1/orgs/${org}/spaces`)).items[0].id}/content/pages`)).pages;
  const pagePath = `${pages[0].path}/${pages[0].pages[3].slug}`;
  await timedGet(`${small}/${pagePath}`);

  // What a visitor's browser transfers for a content page: its HTML (the stylesheet is inline)
  // and the site's one script, each gzip-compressed (docs serve does not compress: a proxy in
  // front of it would; the bench compresses as it would).
  const html = (await timedGet(`${small}/${pagePath}`)).bytes;
  const scripts = [...html.toString().matchAll(/<script src="([^"]+)"/g)].map((m) => new URL(m[1].replace(/&amp;/g, '&'), base).href);
  const parts = [html, ...(await Promise.all(scripts.map(async (u) => (await timedGet(u)).bytes)))];
  const raw = parts.reduce((n, b) => n + b.length, 0);
  const gz = parts.reduce((n, b) => n + gzipSync(b).length, 0);
  console.log(`content page transferred: ${(raw / 1024).toFixed(1)} kB raw, ${(gz / 1024).toFixed(1)} kB gzip (HTML with inline CSS + ${scripts.length} script)`);
  check('content page transferred (HTML + CSS + JS, gzip)', gz / 1024, TARGETS.pageKb, ' kB');

  // First render of a page of the big space, then the same page warm (median of 9).
  const big = await site(base, org, await spaceOf(base, org, BIG, 'Big'), 'Big Site');
  const first = await timedGet(`${big}/${pagePath}`);
  const warm = [];
  for (let i = 0; i < 9; i++) warm.push((await timedGet(`${big}/${pagePath}`)).ms);
  console.log(`first render of a page of a ${BIG}-page space: ${first.ms.toFixed(1)} ms; warm median ${median(warm).toFixed(1)} ms (${(first.ms / median(warm)).toFixed(2)}x)`);
  check(`first render, ${BIG}-page space`, first.ms, TARGETS.firstRenderMs, ' ms');

  // Reads at 32 connections: the page vs a bare node:http server answering the same bytes.
  const file = join(dir, 'page.html');
  writeFileSync(file, first.bytes);
  const path = new URL(`${big}/${pagePath}`).pathname;
  bare = await startBareServer({ [path]: file }, first.type, env);
  const urls = { docs: `${big}/${pagePath}`, bare: `${bare.url}${path}` };
  for (const url of Object.values(urls)) await load({ url, connections: 32, duration: 1 });
  const sums = { docs: { total: 0, seconds: 0 }, bare: { total: 0, seconds: 0 } };
  for (let r = 0; r < ROUNDS; r++) {
    for (const [k, url] of Object.entries(urls)) {
      const res = await load({ url, connections: 32, duration: SECONDS / ROUNDS });
      if (res.non2xx || res.errors || res.timeouts) throw new Error(`GET ${url}: ${res.non2xx} non-2xx, ${res.errors} errors, ${res.timeouts} timeouts`);
      sums[k].total += res.total;
      sums[k].seconds += res.seconds;
    }
  }
  const rps = (k) => sums[k].total / sums[k].seconds;
  console.log(`published page (${first.bytes.length} bytes) @32 conns: ${Math.round(rps('docs'))} vs bare ${Math.round(rps('bare'))} req/s`);
  check('published page reads @32 conns (docs / bare)', rps('docs') / rps('bare'), TARGETS.readRatio, 'x', true);
} catch (err) {
  console.error(err);
  failed = true;
} finally {
  if (bare) await stopChild(bare.child);
  if (served) await stopChild(served.child);
  removeDir(dir);
}
process.exit(failed ? 1 : 0);
