// Published-site figures, through a real `docs serve` on a data directory:
// - requests/s of a published content page (HTML, brotli as docs serve sends it) at 32 connections,
//   against a bare node:http server answering the same bytes with the same content-encoding
//   (target >= 0.6; warm: the page was rendered once before);
// - the bytes a content page costs a visitor: HTML (inline CSS) + the site script, as transferred
//   (compressed by docs serve, brotli) (target <= 50 kB);
// - Lighthouse (mobile preset, Debian's Chromium: bench/lighthouse.mjs) on a content page and an API
//   operation page: performance, accessibility, best practices, SEO (target >= 95 each);
// - the first render of a page of a 5,000-page space (the site's index of that space is built on
//   it: no earlier request touched the space), in ms (target <= 50) and against a warm request.
// - the first render of an API reference operation page of the 1.7 MB GitBook spec (0.202.0),
//   once the spec is processed: reading its version's documents, indexing them, the page tree
//   with 263 paths' operations, and the page itself, in ms (target <= 50; the renderer and its
//   code languages were loaded by a small spec's page first), against a warm request.
// Prints each figure with its target; exits 1 on a miss. Each figure is also printed as a line
// `BENCH-RESULT {json}` that bench/run.mjs puts in its summary table (figure, ratio, target, result).
//
//   node bench/published.mjs [--quick]     (--quick: 2,000 pages, shorter loads)
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { childEnv, load, removeDir, startBareServer, startDocsServe, stopChild, tempDir } from './lib.mjs';
import { sectionChanges } from './text.mjs';
import { contentMarkdown, tinySpec as petSpec } from './published-content.mjs';
import { CATEGORIES, lighthouseAvailable, lighthouseScores } from './lighthouse.mjs';
// The reference's own slugs (src/urls/site/api-spec.ts), from the build the bench runs.
import { slugify } from '../dist/src/kernel/slug.js';

const QUICK = process.argv.includes('--quick');
const BIG = QUICK ? 2000 : 5000;
const SECONDS = QUICK ? 2 : 5;
const ROUNDS = 4;
const TOKEN = 'bench-published-token';
const TARGETS = { readRatio: 0.6, firstRenderMs: 50, pageKb: 50, apiFirstRenderMs: 50, lighthouse: 95 };
const NO_LIGHTHOUSE = process.argv.includes('--no-lighthouse');

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

/** A GET as a browser sends it (brotli and gzip accepted), the body as transferred (not decoded). */
function rawGet(url) {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { 'accept-encoding': 'gzip, deflate, br' } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`GET ${url}: ${res.statusCode}`));
        resolve({ bytes: Buffer.concat(chunks), headers: res.headers });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const dir = tempDir('published');
const env = childEnv(tempDir('config'), { DOCS_BOOTSTRAP_TOKEN: TOKEN });
let served;
let bare;
let failed = false;
const check = (label, value, target, unit, atLeast = false, digits = 2) => {
  const ok = atLeast ? value >= target : value <= target;
  if (!ok) failed = true;
  const shown = `${value.toFixed(digits)}${unit}`;
  const wanted = `${atLeast ? '>=' : '<='} ${target}${unit}`;
  console.log(`${ok ? 'ok  ' : 'MISS'} ${label}: ${shown} (target ${wanted})`);
  console.log(`BENCH-RESULT ${JSON.stringify({ figure: label, shown, target: wanted, pass: ok })}`);
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

  // A handbook-like content page and a small API reference (bench/published-content.mjs): what a
  // visitor transfers for the content page, and Lighthouse on it and on an operation page.
  await specOf(base, org, 'pets', JSON.stringify(petSpec));
  const acmeSpace = (await api(base, 'POST', `/v1/orgs/${org}/spaces`, { title: 'Acme Guides' })).id;
  {
    const cr = await api(base, 'POST', `/v1/spaces/${acmeSpace}/change-requests`, { subject: 'pages' });
    await api(base, 'POST', `/v1/spaces/${acmeSpace}/change-requests/${cr.id}/content`, {
      changes: [
        {
          operation: 'insert_page',
          ref: 'a',
          title: 'Getting started',
          description: 'Install the Acme CLI, configure it and run it in CI.',
          document: { markdown: contentMarkdown },
        },
        { operation: 'insert_page', ref: 'r', title: 'Reference', document: { markdown: '{% openapi-reference spec="pets" %}\n' } },
      ],
    });
    await api(base, 'POST', `/v1/spaces/${acmeSpace}/change-requests/${cr.id}/merge`);
  }
  const acme = await site(base, org, acmeSpace, 'Acme Docs');
  const contentUrl = `${acme}/getting-started`;
  const opPageUrl = `${acme}/reference/pets/getpet`;
  await timedGet(contentUrl);
  await timedGet(opPageUrl);

  // What a visitor's browser transfers for a content page: its HTML (the stylesheet is inline)
  // and the site's one script, as docs serve sends them to a browser (brotli).
  const html = (await timedGet(contentUrl)).bytes;
  const scripts = [...html.toString().matchAll(/<script src="([^"]+)"/g)].map((m) => new URL(m[1].replace(/&amp;/g, '&'), base).href);
  const parts = [await rawGet(contentUrl), ...(await Promise.all(scripts.map(rawGet)))];
  const sent = parts.reduce((n, p) => n + p.bytes.length, 0);
  const raw = html.length + (await Promise.all(scripts.map(timedGet))).reduce((n, p) => n + p.bytes.length, 0);
  console.log(
    `content page transferred: ${(sent / 1024).toFixed(1)} kB (${parts.map((p) => p.headers['content-encoding'] ?? 'identity').join(' + ')}) of ${(raw / 1024).toFixed(1)} kB (HTML with inline CSS + ${scripts.length} script)`,
  );
  check('content page transferred (HTML + CSS + JS, compressed)', sent / 1024, TARGETS.pageKb, ' kB', false, 1);

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

  // Reads at 32 connections: the page vs a bare node:http server answering the same bytes. Both
  // are asked as a browser asks (brotli accepted): docs serve answers from its page cache and the
  // brotli bytes kept with it; the bare server answers those same bytes with the same headers.
  const ACCEPT = { 'accept-encoding': 'gzip, deflate, br' };
  const sentPage = await rawGet(`${big}/${pagePath}`);
  const file = join(dir, 'page.html.br');
  writeFileSync(file, sentPage.bytes);
  const path = new URL(`${big}/${pagePath}`).pathname;
  const same = Object.fromEntries(
    ['content-encoding', 'vary', 'etag', 'content-security-policy', 'x-content-type-options', 'referrer-policy']
      .filter((h) => sentPage.headers[h])
      .map((h) => [h, sentPage.headers[h]]),
  );
  bare = await startBareServer({ [path]: file }, first.type, { ...env, BARE_HEADERS: JSON.stringify(same) });
  const urls = { docs: `${big}/${pagePath}`, bare: `${bare.url}${path}` };
  for (const url of Object.values(urls)) await load({ url, connections: 32, duration: 1, headers: ACCEPT });
  const sums = { docs: { total: 0, seconds: 0 }, bare: { total: 0, seconds: 0 } };
  for (let r = 0; r < ROUNDS; r++) {
    for (const [k, url] of Object.entries(urls)) {
      const res = await load({ url, connections: 32, duration: SECONDS / ROUNDS, headers: ACCEPT });
      if (res.non2xx || res.errors || res.timeouts) throw new Error(`GET ${url}: ${res.non2xx} non-2xx, ${res.errors} errors, ${res.timeouts} timeouts`);
      sums[k].total += res.total;
      sums[k].seconds += res.seconds;
    }
  }
  const rps = (k) => sums[k].total / sums[k].seconds;
  console.log(
    `published page (${sentPage.bytes.length} bytes ${sentPage.headers['content-encoding'] ?? 'identity'}, ${first.bytes.length} decoded) @32 conns: ${Math.round(rps('docs'))} vs bare ${Math.round(rps('bare'))} req/s`,
  );
  check('published page reads @32 conns (docs / bare)', rps('docs') / rps('bare'), TARGETS.readRatio, 'x', true);
  // Lighthouse last: a few minutes of Chromium, which would otherwise weigh on the figures above.
  if (!NO_LIGHTHOUSE && (await lighthouseAvailable())) {
    const t = performance.now();
    const results = await lighthouseScores([contentUrl, opPageUrl]);
    for (const [i, what] of ['content page', 'API operation page'].entries()) {
      const r = results[i];
      console.log(
        `lighthouse ${what}: ${CATEGORIES.map((c) => `${c} ${r.scores[c]}`).join(', ')} (host benchmark index ${r.firstIndex ?? r.benchmarkIndex}${r.uncalibrated ? `; CPU slowdown 4x scaled to ${r.multiplier}x, the preset's own 4x gave performance ${r.uncalibrated.performance}` : ''})${r.lost.length ? `; lost: ${r.lost.join(', ')}` : ''}`,
      );
      for (const c of CATEGORIES) check(`lighthouse ${what}, ${c}`, r.scores[c], TARGETS.lighthouse, '', true, 0);
    }
    console.log(`lighthouse: ${((performance.now() - t) / 1000).toFixed(0)} s`);
  } else console.log('lighthouse: skipped (--no-lighthouse, or no /usr/bin/chromium)');
} catch (err) {
  console.error(err);
  failed = true;
} finally {
  if (bare) await stopChild(bare.child);
  if (served) await stopChild(served.child);
  removeDir(dir);
}
process.exit(failed ? 1 : 0);
