// A CPU profile of `docs serve` answering a cached published page at 32 connections (the read
// path bench/published.mjs compares to a bare node:http server), for finding per-request work.
//   node bench/published-profile.mjs [DIR] [SECONDS]   writes DIR/*.cpuprofile (default: a temp dir)
// and prints the functions with the most self time. DOCS_BENCH_BIN: another CLI entry to profile
// (a build to compare with); DOCS_BENCH_NO_PROFILE=1: no profile, only the req/s against a bare
// node:http server sending the same bytes (rounds alternated, as bench/published.mjs does).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { BIN, childEnv, load, removeDir, startBareServer, startChild, stopChild, tempDir } from './lib.mjs';
import { sectionChanges } from './text.mjs';

const TOKEN = 'bench-profile-token';
const out = process.argv[2] ?? tempDir('profile');
const seconds = Number(process.argv[3] ?? 8);
const dir = tempDir('published-profile');
const env = childEnv(tempDir('config'), { DOCS_BOOTSTRAP_TOKEN: TOKEN });
const PROFILE = !process.env.DOCS_BENCH_NO_PROFILE;
const bin = process.env.DOCS_BENCH_BIN ?? BIN;
let bare;
const served = await startChild(
  'docs serve',
  [...(PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${out}`] : []), bin, 'serve', '--port', '0', '--quiet', '--data', join(dir, 'data')],
  {
    env,
    ready: /API at (http:\/\/127\.0\.0\.1:\d+)\/v1/,
  },
);
try {
  const api = async (method, path, body) => {
    const res = await fetch(served.url + path, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : undefined;
  };
  const org = (await api('GET', '/v1/orgs')).items[0].id;
  const space = (await api('POST', `/v1/orgs/${org}/spaces`, { title: 'Profiled' })).id;
  const cr = await api('POST', `/v1/spaces/${space}/change-requests`, { subject: 'seed' });
  for (let s = 0; s < 4; s++) await api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/content`, { changes: sectionChanges(s) });
  await api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`);
  const site = await api('POST', `/v1/orgs/${org}/sites`, { title: 'Profiled Site', spaces: [space] });
  const published = (await api('POST', `/v1/orgs/${org}/sites/${site.id}/publish`)).urls.published;
  const pages = (await api('GET', `/v1/spaces/${space}/content/pages`)).pages;
  const url = `${published}/${pages[0].path}/${pages[0].pages[3].slug}`;
  const headers = { 'accept-encoding': 'gzip, deflate, br' };
  await load({ url, connections: 32, duration: 1, headers });
  if (PROFILE) {
    const r = await load({ url, connections: 32, duration: seconds, headers });
    console.log(`${url}: ${Math.round(r.rps)} req/s, ${r.non2xx} non-2xx`);
  } else {
    // The same bytes and headers from a bare node:http server, rounds alternated.
    const sent = await new Promise((resolve, reject) => {
      request(url, { headers }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ bytes: Buffer.concat(chunks), headers: res.headers, type: res.headers['content-type'] }));
      })
        .on('error', reject)
        .end();
    });
    const file = join(dir, 'page.br');
    writeFileSync(file, sent.bytes);
    const path = new URL(url).pathname;
    const same = Object.fromEntries(
      ['content-encoding', 'vary', 'etag', 'content-security-policy', 'x-content-type-options', 'referrer-policy']
        .filter((h) => sent.headers[h])
        .map((h) => [h, sent.headers[h]]),
    );
    bare = await startBareServer({ [path]: file }, sent.type, { ...env, BARE_HEADERS: JSON.stringify(same) });
    const urls = { docs: url, bare: `${bare.url}${path}` };
    await load({ url: urls.bare, connections: 32, duration: 1, headers });
    const sums = { docs: { total: 0, seconds: 0 }, bare: { total: 0, seconds: 0 } };
    for (let r = 0; r < 4; r++)
      for (const [k, u] of Object.entries(urls)) {
        const res = await load({ url: u, connections: 32, duration: seconds / 4, headers });
        if (res.non2xx || res.errors) throw new Error(`GET ${u}: ${res.non2xx} non-2xx, ${res.errors} errors`);
        sums[k].total += res.total;
        sums[k].seconds += res.seconds;
      }
    const rps = (k) => sums[k].total / sums[k].seconds;
    console.log(`docs ${Math.round(rps('docs'))} vs bare ${Math.round(rps('bare'))} req/s: ${(rps('docs') / rps('bare')).toFixed(3)}x`);
  }
} finally {
  if (bare) await stopChild(bare.child);
  await stopChild(served.child, 10_000);
  removeDir(dir);
}
if (!PROFILE) process.exit(0);
// Self time by function (the profile's samples), the top 30.
for (const f of readdirSync(out).filter((n) => n.endsWith('.cpuprofile'))) {
  const p = JSON.parse(readFileSync(join(out, f), 'utf8'));
  const self = new Map();
  const dt = new Map();
  p.samples.forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
  let total = 0;
  for (const n of p.nodes) {
    const t = dt.get(n.id) ?? 0;
    total += t;
    const cf = n.callFrame;
    const key = `${cf.functionName || '(anonymous)'} ${cf.url.replace(/^.*\/(src|server|node_modules)\//, '$1/')}:${cf.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + t);
  }
  console.log(`${f}: ${(total / 1e6).toFixed(1)} s sampled`);
  for (const [k, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${((100 * t) / total).toFixed(1).padStart(5)}%  ${k}`);
}
