import { request as httpRequest } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sample, sampleNote } from '../helpers/sample.js';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { contractRoutes, operationSpec, type JsonSchema, type OperationSpec } from '../../src/contract/spec.js';
import { OPERATIONS } from '../../src/operations.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { tokenUseWrite, tokenUsesWritten } from '../../src/auth/tokens.js';

// Hostile and invalid input on every registered operation, generated from the contract: every
// answer must be a 4xx with the error body (never a 5xx, never a hang), and the data directory
// must be byte-for-byte what it was. Generated from the registry, so a new operation is covered.

let s: TestServer;
const ids: Record<string, string> = {};

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      // search/: the search indexes, derived data the background indexer (src/search/indexer.ts)
      // brings to the store's commits whenever it runs, not something a request writes.
      if (e.isDirectory()) p !== join(dir, 'search') && walk(p);
      else if (e.name !== 'lock.json') out[p] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

function resolve(op: OperationSpec, schema: JsonSchema | undefined, depth = 0): JsonSchema {
  let sch = schema ?? {};
  for (let i = 0; sch.$ref && i < 20; i++) sch = op.components.schemas[String(sch.$ref).split('/').pop()!] ?? {};
  if (sch.allOf && depth < 5) {
    return sch.allOf.reduce((acc: JsonSchema, part: JsonSchema) => {
      const r = resolve(op, part, depth + 1);
      return { ...acc, ...r, properties: { ...acc.properties, ...r.properties }, required: [...(acc.required ?? []), ...(r.required ?? [])] };
    }, {});
  }
  return sch;
}

const wrongType = (sch: JsonSchema): unknown => {
  const t = Array.isArray(sch.type) ? sch.type[0] : sch.type;
  return t === 'string'
    ? 12345
    : t === 'number' || t === 'integer'
      ? 'not a number'
      : t === 'boolean'
        ? 'yes'
        : t === 'array'
          ? { not: 'an array' }
          : t === 'object'
            ? 'not an object'
            : Symbol.for('skip');
};

/** Invalid bodies for an operation: each must be refused. */
function badBodies(op: OperationSpec): unknown[] {
  const out: unknown[] = [[], 42, 'text', null];
  const body = resolve(op, op.requestBody?.schema);
  const props = Object.entries<JsonSchema>(body.properties ?? {});
  if (!props.length) return out;
  const base: Record<string, unknown> = {};
  for (const [name, raw] of props.slice(0, 12)) {
    const p = resolve(op, raw);
    const w = wrongType(p);
    if (w !== Symbol.for('skip')) out.push({ ...base, [name]: w });
    if (p.maxLength !== undefined) out.push({ ...base, [name]: 'x'.repeat(p.maxLength + 1) });
    if (Array.isArray(p.enum) && p.enum.every((e: unknown) => typeof e === 'string')) out.push({ ...base, [name]: '__not_a_value__' });
    if (p.type === 'number' || p.type === 'integer') out.push({ ...base, [name]: p.maximum !== undefined ? p.maximum + 1e9 : -1e308 });
  }
  return out;
}

/** One request with its path exactly as given (no dot-segment resolution), as a Response. */
function rawRequest(method: string, url: string, headers: Record<string, string>, body?: string): Promise<Response> {
  const u = new URL(url.replace(/\/\.\.(?=\/|$)/g, '/__dotdot__'));
  const path = u.pathname.replace(/__dotdot__/g, '..') + u.search;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: u.hostname, port: u.port, method, path, headers, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(new Response(res.statusCode === 204 ? null : Buffer.concat(chunks), { status: res.statusCode! })));
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

const HOSTILE_SEGMENTS = ['..', '%2e%2e%2f..%2f', '%00', '%E0%A4%A', 'x'.repeat(5000), '%F0%9F%92%A9%20%3Cscript%3E', "' OR 1=1 --"];

describe('fuzz: bad input on every operation', () => {
  beforeAll(async () => {
    s = await startServer({ onDisk: true });
    ids.organizationId = (await s.api('GET', '/v1/orgs')).body.items[0].id;
    ids.userId = (await s.api('GET', '/v1/user')).body.id;
    const c = await s.api('POST', `/v1/orgs/${ids.organizationId}/collections`, { body: { title: 'Fuzz' } });
    ids.collectionId = c.body.id;
    ids.spaceId = (await s.api('POST', `/v1/orgs/${ids.organizationId}/spaces`, { body: { title: 'Fuzz' } })).body.id;
    ids.teamId = (await s.api('PUT', `/v1/orgs/${ids.organizationId}/teams`, { body: { title: 'Fuzzers' } })).body?.id ?? 'none';
    ids.commentId = (await s.api('POST', `/v1/spaces/${ids.spaceId}/comments`, { body: { body: { markdown: 'Fuzz' } } })).body.id;
    ids.commentReplyId = (await s.api('POST', `/v1/spaces/${ids.spaceId}/comments/${ids.commentId}/replies`, { body: { body: { markdown: 'Fuzz' } } })).body.id;
  });
  afterAll(() => s?.stop());

  it('answers 4xx with the error body, changes nothing, never hangs', async () => {
    // A token's lastUsedAt is a record of use written 1 s after it (src/auth/tokens.ts), not a
    // write of a request: the setup's is written before the snapshot, and a use recorded again
    // during the sweep (one a minute, a slow run) waits past it. Without this the setup's landed
    // during the sweep whenever the setup took less than a second.
    const delay = tokenUseWrite.delayMs;
    await tokenUsesWritten();
    tokenUseWrite.delayMs = 3_600_000;
    onTestFinished(() => {
      tokenUseWrite.delayMs = delay;
    });
    const before = snapshot(s.dataDir!);
    const failures: string[] = [];
    let sent = 0;
    const send = async (method: string, url: string, init: { body?: string; headers?: Record<string, string> }) => {
      sent++;
      let res: Response;
      try {
        // fetch resolves `..` segments before sending (WHATWG URL: `/v1/users/..` becomes `/v1/`);
        // a raw client sends them as they are, and so does this check.
        res = /\/\.\.(\/|$)/.test(url)
          ? await rawRequest(method, s.url + url, { authorization: `Bearer ${s.token}`, ...init.headers }, init.body)
          : await fetch(s.url + url, {
              method,
              headers: { authorization: `Bearer ${s.token}`, ...init.headers },
              body: init.body,
              signal: AbortSignal.timeout(10_000),
            });
      } catch (err) {
        failures.push(`${method} ${url.slice(0, 120)}: ${(err as Error).message}`);
        return;
      }
      const text = await res.text();
      let body: any;
      try {
        body = JSON.parse(text);
      } catch {}
      // A DELETE of something that does not exist answers 204 and changes nothing (contract).
      if (method === 'DELETE' && res.status === 204) return;
      if (res.status < 400 || res.status >= 500 || body?.error?.code !== res.status || typeof body?.error?.message !== 'string') {
        failures.push(`${method} ${url.slice(0, 120)} ${init.body?.slice(0, 80) ?? ''} -> ${res.status} ${text.slice(0, 160)}`);
      }
    };
    const routes = new Map(contractRoutes().map(([m, p, id]) => [id, [m, p] as const]));
    // npm test: a seeded sample of the operations; npm run test:full: every one.
    const swept = sample(OPERATIONS, 30, 'fuzz');
    for (const { operationId } of swept) {
      const op = operationSpec(operationId);
      const [method, template] = routes.get(operationId)!;
      const fill = (override?: string) =>
        '/v1' + template.replace(/\{([^}]+)\}/g, (_, n: string) => override ?? encodeURIComponent(ids[n] ?? 'nonexistent0000000000'));
      // Hostile path segments, in every path parameter at once.
      if (template.includes('{')) for (const seg of HOSTILE_SEGMENTS) await send(method, fill(seg), {});
      // Query parameters of the wrong type or out of range.
      for (const p of op.parameters.filter((p) => p.in === 'query')) {
        const sch = resolve(op, p.schema);
        const bad =
          sch.type === 'number' || sch.type === 'integer'
            ? 'NaNish'
            : sch.type === 'boolean'
              ? 'maybe'
              : Array.isArray(sch.enum)
                ? '__nope__'
                : sch.maxLength
                  ? 'x'.repeat(sch.maxLength + 1)
                  : undefined;
        if (bad !== undefined) await send(method, `${fill()}?${p.name}=${encodeURIComponent(bad)}`, {});
      }
      if (op.parameters.some((p) => p.name === 'limit')) await send(method, `${fill()}?limit=5000`, {});
      if (method === 'GET' || method === 'DELETE') continue;
      const json = { 'content-type': 'application/json' };
      await send(method, fill(), { body: '{"title": "unterminated', headers: json });
      await send(method, fill(), { body: 'title=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      await send(method, fill(), { body: '['.repeat(20000) + ']'.repeat(20000), headers: json });
      await send(method, fill(), { body: JSON.stringify(JSON.parse('{"a":'.repeat(2000) + '1' + '}'.repeat(2000))), headers: json });
      if (op.requestBody) for (const b of badBodies(op)) await send(method, fill(), { body: JSON.stringify(b), headers: json });
    }
    expect(failures, failures.join('\n') + `\n${sampleNote('fuzz')}`).toEqual([]);
    expect(sent).toBeGreaterThan(swept.length * 5);
    expect(snapshot(s.dataDir!)).toEqual(before);
  }, 300_000);
});
