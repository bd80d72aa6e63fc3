import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type Served } from '../../server/serve.js';
import type { Clock } from '../../src/kernel/clock.js';
import { expectContract } from './contract.js';

export const TEST_TOKEN = 'gb_api_test_owner_token';

export interface TestServer extends Served {
  token: string;
  dataDir?: string;
  /** A request whose answer is checked against the contract before it is returned. */
  api(method: string, path: string, opts?: { body?: unknown; token?: string | null; raw?: string; headers?: Record<string, string> }): Promise<{ status: number; body: any; headers: Headers }>;
  stop(): Promise<void>;
}

export function tempDir(prefix = 'docs-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A real `docs serve` on an ephemeral loopback port (in memory unless `onDisk`). */
export async function startServer(opts: { onDisk?: boolean; dataDir?: string; clock?: Clock; sweepIntervalMs?: number; allowPrivateTunnels?: boolean } = {}): Promise<TestServer> {
  const dataDir = opts.dataDir ?? (opts.onDisk ? tempDir() : undefined);
  const prev = process.env.DOCS_BOOTSTRAP_TOKEN;
  process.env.DOCS_BOOTSTRAP_TOKEN = TEST_TOKEN;
  const served = await serve({ port: 0, dataDir, clock: opts.clock, sweepIntervalMs: opts.sweepIntervalMs, allowPrivateTunnels: opts.allowPrivateTunnels }).finally(() => {
    if (prev === undefined) delete process.env.DOCS_BOOTSTRAP_TOKEN;
    else process.env.DOCS_BOOTSTRAP_TOKEN = prev;
  });
  const api: TestServer['api'] = async (method, path, o = {}) => {
    const token = o.token === undefined ? TEST_TOKEN : o.token;
    const headers: Record<string, string> = { ...(token ? { authorization: `Bearer ${token}` } : {}), ...o.headers };
    let body: string | undefined = o.raw;
    if (o.body !== undefined) body = JSON.stringify(o.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(served.url + path, { method, headers, body });
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : undefined;
    expectContract(method, path, res.status, parsed, res.headers);
    return { status: res.status, body: parsed, headers: res.headers };
  };
  return {
    ...served,
    token: TEST_TOKEN,
    dataDir,
    api,
    stop: async () => {
      await served.close();
      if (dataDir && !opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
