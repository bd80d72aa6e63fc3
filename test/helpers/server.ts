import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type Served } from '../../server/serve.js';
import type { Clock } from '../../src/kernel/clock.js';
import { expect } from 'vitest';
import { Agent, fetch } from 'undici';
import { sseEvents } from '../../src/transport/http.js';
import { expectContract } from './contract.js';
import { exclusive } from './exclusive.js';

export const TEST_TOKEN = 'gb_api_test_owner_token';

/**
 * The test's requests use a new connection each (undici: pipelining 0 disables keep-alive). Client
 * and server share this process: when it is blocked (a synchronous `docs()` CLI call, a loaded
 * machine) past the server's 5 s keep-alive, the next request is written on the idle socket in
 * the same turn, before the server's timer, already due, closes it: ECONNRESET. A new loopback
 * connection costs a fraction of a millisecond. (Keep-alive itself is tested by its own clients:
 * test/transport/keep-alive.test.ts.)
 */
const dispatcher = new Agent({ pipelining: 0 });

export interface TestServer extends Served {
  token: string;
  dataDir?: string;
  /** A request whose answer is checked against the contract before it is returned. */
  api(
    method: string,
    path: string,
    opts?: { body?: unknown; token?: string | null; raw?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any; headers: Headers }>;
  /** A request to a /_docs route (outside the contract): an error must still carry the API's error body. */
  docs(method: string, path: string, opts?: { body?: unknown; token?: string | null }): Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
}

/** A new temp directory, removed after the test file (test/helpers/leaks.ts). */
export function tempDir(prefix = 'docs-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  // Removed by test/helpers/leaks.ts (vitest setupFiles) once the file is done.
  ((globalThis as any)[Symbol.for('docs.test.tempDirs')] ??= []).push(dir);
  return dir;
}

/** A real `docs serve` on an ephemeral loopback port (in memory unless `onDisk`). */
export async function startServer(
  opts: { onDisk?: boolean; dataDir?: string; clock?: Clock; sweepIntervalMs?: number; allowPrivateTunnels?: boolean; token?: string } = {},
): Promise<TestServer> {
  const dataDir = opts.dataDir ?? (opts.onDisk ? tempDir() : undefined);
  // Not while an in-process CLI run has its environment applied (./exclusive.ts).
  const served = await exclusive(() => {
    const prev = process.env.DOCS_BOOTSTRAP_TOKEN;
    process.env.DOCS_BOOTSTRAP_TOKEN = opts.token ?? TEST_TOKEN;
    return serve({
      port: 0,
      dataDir,
      clock: opts.clock,
      sweepIntervalMs: opts.sweepIntervalMs,
      allowPrivateTunnels: opts.allowPrivateTunnels,
    }).finally(() => {
      if (prev === undefined) delete process.env.DOCS_BOOTSTRAP_TOKEN;
      else process.env.DOCS_BOOTSTRAP_TOKEN = prev;
    });
  });
  const api: TestServer['api'] = async (method, path, o = {}) => {
    const token = o.token === undefined ? TEST_TOKEN : o.token;
    const headers: Record<string, string> = { ...(token ? { authorization: `Bearer ${token}` } : {}), ...o.headers };
    let body: string | undefined = o.raw;
    if (o.body !== undefined) body = JSON.stringify(o.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(served.url + path, { method, headers, body, dispatcher });
    const text = await res.text();
    // Server-sent events (src/ask): the list of their data, each event checked against the contract.
    const parsed = /^text\/event-stream/.test(res.headers.get('content-type') ?? '') ? sseEvents(text) : text ? JSON.parse(text) : undefined;
    expectContract(method, path, res.status, parsed, res.headers);
    return { status: res.status, body: parsed, headers: res.headers };
  };
  const docs: TestServer['docs'] = async (method, path, o = {}) => {
    const token = o.token === undefined ? TEST_TOKEN : o.token;
    const res = await fetch(served.url + path, {
      dispatcher,
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: o.body === undefined ? undefined : JSON.stringify(o.body),
    });
    const text = await res.text();
    const body = text ? JSON.parse(text) : undefined;
    if (res.status >= 400) expect(body, `${method} ${path} -> ${res.status}`).toEqual({ error: { code: res.status, message: expect.any(String) } });
    return { status: res.status, body };
  };
  return {
    ...served,
    token: TEST_TOKEN,
    dataDir,
    api,
    docs,
    stop: async () => {
      await served.close();
      if (dataDir && !opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A data directory holding one space (`title`) of the owner's first organization, made by a
 * `docs serve` that is closed again: the store a next start (a warm-up's) finds. With the owner's
 * token, as headers for a JSON request.
 */
export async function dataDirWithSpace(title = 'Warm'): Promise<{ dir: string; auth: Record<string, string>; space: string }> {
  const dir = tempDir();
  const first = await serve({ dataDir: dir, port: 0 });
  const auth = { authorization: `Bearer ${first.bootstrapToken}`, 'content-type': 'application/json' };
  try {
    const org = ((await (await fetch(`${first.url}/v1/orgs`, { headers: auth })).json()) as { items: { id: string }[] }).items[0]!.id;
    const res = await fetch(`${first.url}/v1/orgs/${org}/spaces`, { method: 'POST', headers: auth, body: JSON.stringify({ title }) });
    if (res.status !== 201) throw new Error(`creating the space answered ${res.status}: ${await res.text()}`);
    return { dir, auth, space: ((await res.json()) as { id: string }).id };
  } finally {
    await first.close();
  }
}
