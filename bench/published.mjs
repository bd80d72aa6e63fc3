// Published-site figures, through a real `docs serve` on a data directory:
// - requests/s of a published content page (HTML) at 32 connections, against a bare node:http
//   server answering the same bytes (target >= 0.5; warm: the page was rendered once before);
// - the bytes a content page costs a visitor: HTML (inline CSS) + the site script, gzip (target <= 50 kB);
// - the first render of a page of a 5,000-page space (the site's index of that space is built on
//   it: no earlier request touched the space), in ms (target <= 50) and against a warm request.
// - the first render of an API reference operation page of the 1.7 MB GitBook spec (0.202.0),
//   once the spec is processed: reading its version's documents, indexing them, the page tree
//   with 263 paths' operations, and the page itself, in ms (target <= 50; the renderer and its
//   code languages were loaded by a small spec's page first), against a warm request.
// Prints each figure with its target; exits 1 on a miss.
//
//   node bench/published.mjs [--quick]     (--quick: 2,000 pages, shorter loads)
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { childEnv, load, removeDir, startBareServer, startDocsServe, stopChild, tempDir } from './lib.mjs';
import { sectionChanges } from './text.mjs';
// The reference's own slugs (src/published/api/spec.ts), from the build the bench runs.
import { slugify } from '../dist/src/kernel/slug.js';

const QUICK = process.argv.includes('--quick');
const BIG = QUICK ? 2000 : 5000;
const SECONDS = QUICK ? 2 : 5;
const ROUNDS = 4;
const TOKEN = 'bench-published-token';
const TARGETS = { readRatio: 0.5, firstRenderMs: 50, pageKb: 50, apiFirstRenderMs: 50 };

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

/** Puts an OpenAPI spec (text) and waits for its processing to finish. */
async function specOf(base, org, slug, text) {
  await api(base, 'PUT', `/v1/orgs/${org}/openapi/${slug}`, { source: { text } });
  for (let i = 0; i < 600; i++) {
    const spec = await api(base, 'GET', `/v1/orgs/${org}/openapi/${slug}`);
    if (spec.processingState === 'complete') {
      if (spec.lastProcessErrorCode) throw new Error(`openapi ${slug}: ${spec.lastProcessErrorCode}`);
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`openapi ${slug}: not processed`);
}

/** A site of one space whose page \`reference\` is the API reference of spec \`slug\`. */
async function referenceSite(base, org, slug) {
  const space = (await api(base, 'POST', `/v1/orgs/${org}/spaces`, { title: `API ${slug}` })).id;
  const cr = await api(base, 'POST', `/v1/spaces/${space}/change-requests`, { subject: 'reference' });
  await api(base, 'POST', `/v1/spaces/${space}/change-requests/${cr.id}/content`, {
    changes: [{ operation: 'insert_page', ref: 'r', title: 'Reference', document: { markdown: `{% openapi-reference spec="${slug}" %}\n` } }],
  });
  await api(base, 'POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`);
  return site(base, org, space, `API ${slug} Site`);
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
  console.log(
    `content page transferred: ${(raw / 1024).toFixed(1)} kB raw, ${(gz / 1024).toFixed(1)} kB gzip (HTML with inline CSS + ${scripts.length} script)`,
  );
  check('content page transferred (HTML + CSS + JS, gzip)', gz / 1024, TARGETS.pageKb, ' kB');

  // First render of an API operation page of the GitBook spec, once processed. A small spec's
  // operation page first: the renderer's code languages load there, not in the figure.
  const tiny = {
    openapi: '3.0.3',
    info: { title: 'Tiny', version: '1' },
    servers: [{ url: 'https://tiny.test' }],
    paths: {
      '/a': {
        post: {
          operationId: 'a',
          requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { x: { type: 'string' } } } } } },
          responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } },
        },
      },
    },
  };
  await specOf(base, org, 'tiny', JSON.stringify(tiny));
  await timedGet(`${await referenceSite(base, org, 'tiny')}/reference/other/a`);
  const gitbookText = readFileSync(join(import.meta.dirname, '..', 'node_modules', 'gitbook-api-latest', 'spec', 'openapi.json'), 'utf8');
  await specOf(base, org, 'gitbook', gitbookText);
  const gb = JSON.parse(gitbookText);
  const op = gb.paths['/orgs/{organizationId}/sites/{siteId}/customization'].put;
  const opUrl = `${await referenceSite(base, org, 'gitbook')}/reference/${slugify(op.tags[0], 80, 'other')}/${slugify(op.operationId, 90, 'operation')}`;
  const apiFirst = await timedGet(opUrl);
  const apiWarm = [];
  for (let i = 0; i < 9; i++) apiWarm.push((await timedGet(opUrl)).ms);
  console.log(
    `first render of an API operation page (GitBook spec, ${(gitbookText.length / 1048576).toFixed(1)} MB, processed): ${apiFirst.ms.toFixed(1)} ms; warm median ${median(apiWarm).toFixed(1)} ms (${(apiFirst.ms / median(apiWarm)).toFixed(2)}x); ${(apiFirst.bytes.length / 1024).toFixed(0)} kB HTML`,
  );
  check('first render, API operation page of the GitBook spec', apiFirst.ms, TARGETS.apiFirstRenderMs, ' ms');

  // First render of a page of the big space, then the same page warm (median of 9).
  const big = await site(base, org, await spaceOf(base, org, BIG, 'Big'), 'Big Site');
  const first = await timedGet(`${big}/${pagePath}`);
  const warm = [];
  for (let i = 0; i < 9; i++) warm.push((await timedGet(`${big}/${pagePath}`)).ms);
  console.log(
    `first render of a page of a ${BIG}-page space: ${first.ms.toFixed(1)} ms; warm median ${median(warm).toFixed(1)} ms (${(first.ms / median(warm)).toFixed(2)}x)`,
  );
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
