import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PgBackend } from '../../src/store/pg-backend.js';

// The machine's PostgreSQL for tests of the PostgreSQL store (DOCS_TEST_PG, else the local server
// with trust auth). A suite calls postgresOrSkip() at its top (top-level await) and skips itself
// when it gets undefined; each test keeps its tables in a schema of its own, dropped at its end.

export const TEST_PG_URL = process.env.DOCS_TEST_PG || 'postgres://postgres@127.0.0.1:5432/test';

let reachable: Promise<string | undefined> | undefined;

/**
 * The test database's URL, or undefined (after a console.warn saying why) when it cannot be
 * reached. Under CI (`CI` set) an unreachable database throws: the suite fails, not skips.
 */
export function postgresOrSkip(url = TEST_PG_URL): Promise<string | undefined> {
  return (reachable ??= (async () => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('SELECT 1');
      return url;
    } catch (e) {
      const reason = `PostgreSQL unreachable at ${redact(url)}: ${(e as Error).message || String(e)}`;
      if (process.env.CI) throw new Error(`${reason} (CI is set: the PostgreSQL tests must run)`);
      console.warn(`skipping the PostgreSQL tests: ${reason} (set DOCS_TEST_PG to a reachable database)`);
      return undefined;
    } finally {
      await client.end().catch(() => {});
    }
  })());
}

/** A schema name no other test uses (the store creates the schema itself). */
export function freshSchemaName(prefix = 'test'): string {
  return `${prefix}_${process.pid}_${randomBytes(6).toString('hex')}`;
}

export async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Runs `fn` with a fresh schema name, dropping the schema afterwards whatever happens. */
export async function withFreshSchema<T>(url: string, fn: (schema: string) => Promise<T>, prefix?: string): Promise<T> {
  const schema = freshSchemaName(prefix);
  try {
    return await fn(schema);
  } finally {
    await dropSchema(url, schema);
  }
}

/** The URL with its password hidden, for messages. */
function redact(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}

/**
 * The PostgreSQL side of a backend contract: `setup` opens backends on a fresh schema (one per
 * test), `cleanup` closes them and drops the schema. `ignoreCloseErrors`: a close that fails does
 * not fail the test (a test that closed a backend itself).
 */
export function pgContractBackends(url: string | undefined, prefix: string, { ignoreCloseErrors = false } = {}) {
  const opened: PgBackend[] = [];
  let schema: string | undefined;
  return {
    setup: async () => {
      const s = (schema = freshSchemaName(prefix));
      return {
        open: () => {
          const b = new PgBackend(url!, { schema: s, poolSize: 4, connectTimeoutMs: 5_000 });
          opened.push(b);
          return b;
        },
      };
    },
    cleanup: async () => {
      await Promise.all(opened.splice(0).map((b) => (ignoreCloseErrors ? b.close().catch(() => {}) : b.close())));
      if (schema) await dropSchema(url!, schema);
      schema = undefined;
    },
  };
}
