// Durable renames spread over many spaces, through the HTTP API: what the write benches that run
// several servers (bench/pg-two-servers.mjs, bench/pg-writes.mjs) load each server with.
import autocannon from 'autocannon';

const TOKEN = 'bench-token';
export const HEADERS = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

export async function api(base, method, path, body) {
  const r = await fetch(base + path, { method, headers: HEADERS, body: body && JSON.stringify(body) });
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  return r.json();
}

/** `spaces` new spaces in the server's first organization; their ids. */
export async function seedRenameSpaces(base, spaces) {
  const org = (await api(base, 'GET', '/v1/orgs')).items[0].id;
  const ids = [];
  for (let i = 0; i < spaces; i++) ids.push((await api(base, 'POST', `/v1/orgs/${org}/spaces`, { title: `Bench ${i}` })).id);
  return ids;
}

/** `connections` connections on `base`, each request renaming the next of `ids` (a new title each time). */
export async function renames(base, ids, connections, seconds) {
  let n = 0;
  const r = await autocannon({
    url: base,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'PATCH',
        headers: HEADERS,
        setupRequest: (req) => ({ ...req, path: `/v1/spaces/${ids[n % ids.length]}`, body: JSON.stringify({ title: `Renamed ${n++}` }) }),
      },
    ],
  });
  const statuses = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]));
  return { ok: statuses['200'] ?? 0, total: r.requests.total, seconds: r.duration, statuses, errors: r.errors, p50: r.latency.p50, p99: r.latency.p99 };
}
