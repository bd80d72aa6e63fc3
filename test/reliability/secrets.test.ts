import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, spawnServe } from '../helpers/cli.js';
import { tempDir } from '../helpers/server.js';
import { startReceiver } from '../integrations/helpers.js';
import { startFakeTranslator } from '../translations/fake-translator.js';

// Secrets stay secret, end to end on a spawned `docs serve` with its request log on: the owner's
// token is printed once (at bootstrap) and never again, in no log line and no response; no
// `Authorization` value, wrong token, signed-URL signature, session token or integration secret
// appears in the server's output; integration secrets and scripts appear in no response and in
// no delivered event; the data directory and everything in it is the owner's alone, and no
// token is stored in clear.

const SECRET = 'sk_live_reliability_secret_0123456789';
const SCRIPT_MARK = 'script_private_marker_9876543210';
const WRONG = 'gb_api_wrong_token_value_that_must_not_echo';
const BASIC = Buffer.from('alice:basic-password-secret').toString('base64');

const dir = tempDir();
let served: Awaited<ReturnType<typeof spawnServe>>;
let token = '';
let translator: Awaited<ReturnType<typeof startFakeTranslator>>;
const backupFile = join(tempDir(), 'backup.tar.gz');
const responses: string[] = [];

async function call(method: string, path: string, body?: unknown, auth = `Bearer ${token}`) {
  const res = await fetch(served.url + path, {
    method,
    headers: { authorization: auth, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  responses.push(`${method} ${path} ${res.status} ${JSON.stringify([...res.headers])} ${text}`);
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

function cli(args: string[]): Promise<{ out: string; all: string }> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, DOCS_DATA: dir };
    for (const k of ['DOCS_API_URL', 'DOCS_TOKEN', 'DOCS_BOOTSTRAP_TOKEN']) delete env[k];
    const c = spawn(process.execPath, [BIN, ...args], { env });
    let out = '';
    let all = '';
    c.stdout.on('data', (d) => ((out += d), (all += d)));
    c.stderr.on('data', (d) => (all += d));
    c.on('exit', () => resolve({ out, all }));
  });
}

describe('secrets', () => {
  beforeAll(async () => {
    // No DOCS_BOOTSTRAP_TOKEN: the server makes a random token and prints it once.
    translator = await startFakeTranslator();
    served = await spawnServe(['--data', dir, '--allow-private-tunnels'], {
      DOCS_BOOTSTRAP_TOKEN: '',
      DOCS_DELIVERY_TIMEOUT_MS: '2000',
      DOCS_TRANSLATOR_URL: translator.url,
    });
    token = /Token \(shown once\): (\S+)/.exec(served.output())![1]!;
  });
  afterAll(async () => {
    if (served.child.exitCode === null) served.child.kill('SIGKILL');
    await translator?.close();
  });

  it('never prints or returns a token, an Authorization value or an integration secret', async () => {
    const rx = await startReceiver();
    const org = (await call('GET', '/v1/orgs')).body.items[0].id;
    expect((await call('GET', '/v1/user')).status).toBe(200);
    // Refused credentials are not echoed.
    const wrong = await call('GET', '/v1/orgs', undefined, `Bearer ${WRONG}`);
    expect(wrong.status).toBe(401);
    expect((await call('GET', '/v1/orgs', undefined, `Basic ${BASIC}`)).status).toBe(401);

    // An integration with a secret and a script, in development mode, installed and configured:
    // each step records an event, delivered to a real receiver.
    const manifest = {
      organization: org,
      title: 'Secretive',
      description: 'Holds a secret',
      script: `export default { k: "${SCRIPT_MARK}" }`,
      scopes: ['space:content:read'],
      secrets: { API_KEY: SECRET },
    };
    expect((await call('POST', '/v1/integrations/secretive', manifest)).status).toBe(200);
    expect((await call('PUT', '/v1/integrations/secretive/dev', { tunnelUrl: rx.url })).status).toBe(204);
    const inst = await call('POST', '/v1/integrations/secretive/installations', { organization: org });
    expect(inst.status).toBe(201);
    expect((await call('PATCH', `/v1/integrations/secretive/installations/${inst.body.id}`, { externalIds: ['team-1'] })).status).toBe(200);
    for (const path of [
      '/v1/integrations/secretive',
      '/v1/integrations?limit=100',
      '/v1/integrations/secretive/installations',
      `/v1/integrations/secretive/installations/${inst.body.id}`,
    ])
      await call('GET', path);
    const deadline = Date.now() + 10_000;
    while (rx.received.length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(rx.received.length).toBeGreaterThanOrEqual(1);
    const events = (await call('GET', '/v1/integrations/secretive/events')).body.items;
    for (const e of events) await call('GET', `/v1/integrations/secretive/events/${e.id}`);

    // A file served at a signed URL: the signature (in the query) is not logged.
    const space = (await call('POST', `/v1/orgs/${org}/spaces`, { title: 'Files', language: 'en' })).body.id;
    const cr = (await call('POST', `/v1/spaces/${space}/change-requests`, { subject: 'File' })).body.id;
    await call('POST', `/v1/spaces/${space}/change-requests/${cr}/content?compat=false`, {
      changes: [
        { operation: 'insert_files', files: [{ name: 'a.txt', contentType: 'text/plain', base64: Buffer.from('a').toString('base64') }] },
        { operation: 'insert_page', title: 'Zebras', document: { markdown: 'Zebras are striped.' } },
      ],
    });
    expect((await call('POST', `/v1/spaces/${space}/change-requests/${cr}/merge`)).status).toBe(200);
    const url: string = (await call('GET', `/v1/spaces/${space}/content/files`)).body.items[0].downloadURL;
    const sig = new URL(url).searchParams.get('sig')!;
    expect((await fetch(url)).status).toBe(200);

    // A processed OpenAPI spec (its documents are files of the data directory).
    expect(
      (await call('PUT', `/v1/orgs/${org}/openapi/petstore`, { source: { text: '{"openapi":"3.0.0","info":{"title":"t","version":"1"},"paths":{}}' } })).status,
    ).toBe(201);
    while ((await call('GET', `/v1/orgs/${org}/openapi/petstore/versions`)).body.count === 0 && Date.now() < deadline + 10_000)
      await new Promise((r) => setTimeout(r, 50));

    // Every other area that writes files of the data directory: a rendered PDF, the search
    // index (SQLite and its -wal/-shm files), a translation run, a backup taken through the server.
    const pdf = await call('GET', `/v1/spaces/${space}/pdf`);
    expect(pdf.status).toBe(200);
    expect((await fetch(pdf.body.url)).status).toBe(200);
    const found = await call('GET', `/v1/spaces/${space}/search?query=zebras`);
    expect(found.status).toBe(200);
    expect(found.body.count).toBeGreaterThan(0);
    const tr = await call('POST', `/v1/orgs/${org}/translations`, { source: { space, language: 'en' }, language: 'fr' });
    expect(tr.status).toBe(201);
    expect((await call('POST', `/v1/orgs/${org}/translations/${tr.body.id}/run`)).status).toBe(204);
    let run = tr.body;
    while (run.status !== 'completed' && run.status !== 'failed' && Date.now() < deadline + 20_000) {
      await new Promise((r) => setTimeout(r, 50));
      run = (await call('GET', `/v1/orgs/${org}/translations/${tr.body.id}`)).body;
    }
    expect(run.status, JSON.stringify(run)).toBe('completed');
    const backup = await cli(['backup', '--data', dir, backupFile]);
    expect(statSync(backupFile).mode & 0o077, backup.all).toBe(0);

    // An in-process command on the held directory is sent to the server with its session token.
    const session = JSON.parse(readFileSync(join(dir, 'lock.json'), 'utf8')).token as string;
    const cliRun = await cli(['orgs', 'list', '--json']);
    expect(cliRun.out, cliRun.all).toContain(org);
    const cliOut = cliRun.all;

    served.child.kill('SIGTERM');
    expect(await served.exited).toBe(0);
    await rx.close();
    const out = served.output();
    const err = served.errors();
    // The log is on (these lines are the ones that must stay clean).
    expect(out).toMatch(/^GET \/v1\/user 200 /m);
    expect(out).toMatch(/^POST \/v1\/integrations\/secretive 200 /m);
    expect(out).toMatch(/^GET \/files\/\S+ 200 /m);
    expect(out.split(token).length - 1, 'the token is printed once, at bootstrap').toBe(1);
    for (const [what, value] of Object.entries({ token, SECRET, SCRIPT_MARK, WRONG, BASIC, sig, session })) {
      const logged = what === 'token' ? out.replace(/Token \(shown once\): \S+/, '') : out;
      expect(logged + err, `${what} in the server's output`).not.toContain(value);
      // The signature is what downloadURLs carry, by design: only the log must not show it.
      if (what !== 'sig') for (const r of responses) expect(r, `${what} in a response`).not.toContain(value);
      expect(cliOut, `${what} in the CLI's output`).not.toContain(value);
      expect(JSON.stringify(rx.received), `${what} in a delivered event`).not.toContain(value);
    }
    expect(out + err).not.toMatch(/authorization|bearer/i);
  }, 60_000);

  it('keeps the data directory and everything in it to the owner, with no token in clear', () => {
    const loose: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const p = join(d, e.name);
        if (statSync(p).mode & 0o077) loose.push(`${p} ${(statSync(p).mode & 0o777).toString(8)}`);
        if (e.isDirectory()) walk(p);
        else expect(readFileSync(p).includes(token), `${p} holds the token in clear`).toBe(false);
      }
    };
    expect(statSync(dir).mode & 0o077).toBe(0);
    walk(dir);
    expect(loose, 'readable or writable by others').toEqual([]);
    // The walk saw the store, the file blobs, the processed-spec files, the PDFs and the search index.
    expect(readdirSync(dir)).toEqual(expect.arrayContaining(['shards', 'files', 'openapi', 'pdf', 'search']));
    expect(readdirSync(join(dir, 'search')).some((f) => f.endsWith('.sqlite'))).toBe(true);
  });
});
