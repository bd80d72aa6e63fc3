import { rmSync } from 'node:fs';
import { expect } from 'vitest';
import { spawnServe } from './cli.js';
import { dropSchema, freshSchemaName } from './postgres.js';
import { tempDir } from './server.js';

/**
 * `docs serve` processes on one fresh PostgreSQL schema, sharing a blobs directory, a config
 * directory and a bootstrap token. `stop()` kills what is still running, drops the schema and
 * removes the directories (call it from afterAll). `via`: the URL the servers connect to, when
 * not `pgUrl` itself (a proxy in front of it: test/helpers/pg-proxy.ts).
 */
export function pgServers(pgUrl: string, name: string, token: string, via = pgUrl) {
  const schema = freshSchemaName(name);
  const store = `${via}?schema=${schema}`;
  const blobs = tempDir();
  const config = tempDir();
  const children: Awaited<ReturnType<typeof spawnServe>>[] = [];
  return {
    store,
    /** One more server; `flags`: more `docs serve` flags. */
    async start(flags: string[] = []) {
      const s = await spawnServe(['--store', store, '--blobs', blobs, '--quiet', ...flags], { DOCS_BOOTSTRAP_TOKEN: token, DOCS_CONFIG_DIR: config });
      children.push(s);
      return s;
    },
    async stop() {
      for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
      await Promise.all(children.map((c) => c.exited));
      await dropSchema(pgUrl, schema);
      rmSync(blobs, { recursive: true, force: true });
      rmSync(config, { recursive: true, force: true });
    },
  };
}

/**
 * A JSON call to a server's API as `token`: the parsed body; a status of 300 or more fails the
 * test, naming the request and its answer.
 */
export function bearerCall(token: string) {
  return async (base: string, method: string, path: string, body?: unknown) => {
    const r = await fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    expect(r.status, `${method} ${path}: ${text}`).toBeLessThan(300);
    return text ? JSON.parse(text) : undefined;
  };
}
