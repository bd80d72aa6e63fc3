import { bootstrap } from '../../src/auth/bootstrap.js';
import { DocsError } from '../../src/kernel/errors.js';
import { openContext } from '../../src/open.js';
import { HttpTransport } from '../../src/transport/http.js';
import { LocalTransport } from '../../src/transport/local.js';
import type { CallResult, Transport } from '../../src/transport/types.js';
import { TEST_TOKEN, type TestServer } from './server.js';

// The transport parity check every area uses: one scenario run in-process and over HTTP, its
// observable outcomes compared field by field, ids, times, cursors and the base URL aside.

/** Records each call's outcome: `[status, body, Location]`, or the error's kind and message. */
export function recorder() {
  const out: unknown[] = [];
  const step = async (fn: () => Promise<CallResult | unknown>): Promise<any> => {
    try {
      const r: any = await fn();
      if (r && typeof r === 'object' && 'status' in r && 'body' in r) {
        out.push([r.status, r.body, r.headers?.location ?? r.headers?.Location ?? null]);
        return r.body;
      }
      out.push(r);
      return r;
    } catch (e) {
      out.push(e instanceof DocsError ? { kind: e.kind, message: e.message } : String(e));
      return undefined;
    }
  };
  return { out, step };
}

/** Ids, hashes, signatures, times, JWTs, cursors and the base URL differ between two stores; everything else must not. */
export function normalize(value: unknown, base: string): unknown {
  const ids = new Map<string, string>();
  const walk = (v: any): any => {
    if (typeof v === 'string') {
      if (/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/.test(v)) return '{jwt}';
      let s = v
        .split(base)
        .join('{base}')
        .replace(/\b[0-9a-f]{64}\b/g, '{sha}')
        .replace(/sig=[A-Za-z0-9_-]+/g, 'sig={sig}')
        .replace(/exp=\d+/g, 'exp={exp}');
      // Ids are 20 characters; upload ids 24 (src/content/storage.ts). Not a run of a longer
      // base64url token (a question's `.q<hash>` after its organization): one with exactly 20
      // letters and digits before a `-` became an {idN} on one side only, a few runs in a hundred.
      s = s.replace(/(?<![\w-])[A-Za-z0-9]{20}(?:[A-Za-z0-9]{4})?(?![\w-])/g, (id) => {
        if (!ids.has(id)) ids.set(id, `{id${ids.size}}`);
        return ids.get(id)!;
      });
      return /^\d{4}-\d\d-\d\dT/.test(s) ? '{time}' : s;
    }
    if (Array.isArray(v)) return v.map(walk);
    // `page` is a cursor in `next`, but a page id elsewhere (content references).
    // Keys too: some maps are keyed by ids (e.g. sources by `integration:api:<user>`).
    if (v && typeof v === 'object')
      return Object.fromEntries(
        Object.entries(v).map(([k, x]) => [walk(k), k === 'page' && typeof x === 'string' && !/^[A-Za-z0-9]{20}$/.test(x) ? '{cursor}' : walk(x)]),
      );
    return v;
  };
  return walk(value);
}

const LOCAL_BASE = 'http://local.test';

/**
 * Runs `scenario` in-process (a fresh in-memory store, as its owner, background workers on) and
 * against `server`, and returns both normalized outcome lists for the caller to compare.
 */
export async function runBoth(server: TestServer, scenario: (t: Transport) => Promise<unknown[]>) {
  const ctx = await openContext(undefined, { baseUrl: LOCAL_BASE });
  const boot = await bootstrap(ctx, 'gb_api_local');
  const local = await LocalTransport.as(ctx, undefined, { userId: boot!.userId }, 'memory');
  local.runWorkers?.();
  // Lists order by creation time: what the scenario creates must come after what bootstrap made,
  // as on the server started before (the same millisecond would leave the order to random ids).
  await new Promise((resolve) => setTimeout(resolve, 5));
  try {
    const a = normalize(await scenario(local), LOCAL_BASE) as unknown[];
    const b = normalize(await scenario(new HttpTransport(server.url, TEST_TOKEN)), server.url) as unknown[];
    return { local: a, remote: b };
  } finally {
    await local.close();
  }
}
