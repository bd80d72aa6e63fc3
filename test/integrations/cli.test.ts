import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, docs } from '../helpers/cli.js';
import { expectContract } from '../helpers/contract.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';
import { SECRET, startReceiver } from './helpers.js';

/**
 * Runs `docs` without blocking this process (the receiving server must answer meanwhile);
 * `onOutput` is called on its first output (a follower has printed what existed).
 */
function docsAsync(args: string[], env: Record<string, string | undefined>, onOutput?: () => void) {
  return new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, DOCS_API_URL: undefined, DOCS_TOKEN: undefined, DOCS_DATA: undefined, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      if (!stdout) onOutput?.();
      stdout += d;
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ status: code ?? -1, stdout, stderr }));
  });
}

const files = tempDir('docs-integration-files-');
const manifestFile = join(files, 'integration.json');
const scriptFile = join(files, 'index.js');
// 1x1 PNG
writeFileSync(
  join(files, 'icon.png'),
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'),
);
writeFileSync(
  manifestFile,
  JSON.stringify({
    title: 'Notifier',
    description: 'Tells a channel',
    scopes: ['space:content:read'],
    icon: 'icon.png',
    secrets: { TOKEN: SECRET },
    contentSecurityPolicy: "script-src 'self'",
  }),
);
writeFileSync(scriptFile, 'export default { fetch() {} }');

describe('docs integrations, in-process', () => {
  const env = { DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_integrations' };
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => (rx = await startReceiver()));
  afterAll(() => rx.close());

  it('publishes from files, installs with dev-mode delivery, shows events and traces, uninstalls, deletes; never prints secrets', async () => {
    const outputs: string[] = [];
    const run = async (args: string[]) => {
      const r = await docs(args, env);
      outputs.push(r.stdout, r.stderr);
      return r;
    };
    const pub = await run(['integrations', 'publish', 'notifier', '--manifest', manifestFile, '--script', scriptFile, '--json']);
    expect(pub.status, pub.stderr).toBe(0);
    expectContract('POST', '/v1/integrations/notifier', 200, pub.json);
    expect(pub.json).toMatchObject({ name: 'notifier', version: 1, title: 'Notifier' });
    expect(pub.json.urls.icon).toMatch(/^data:image\/png;base64,iVBOR/);
    expect((await run(['integrations', 'publish', 'notifier', '--manifest', manifestFile, '--script', scriptFile])).stdout).toBe(
      'Published notifier version 2 (private).\n',
    );
    expect((await run(['integrations', 'list'])).stdout).toMatch(/notifier.*Notifier.*2/);
    expect((await run(['integrations', 'dev', 'notifier', '--tunnel', rx.url])).stdout).toMatch(/Development mode of notifier is on/);

    const inst = await docs(['integrations', 'install', 'notifier', '--json'], env);
    outputs.push(inst.stdout, inst.stderr);
    expect(inst.status, inst.stderr).toBe(0);
    const installation = JSON.parse(inst.stdout);
    expect(installation.status).toBe('active');
    // Delivered by this in-process command before it exited.
    expect(rx.received).toHaveLength(1);
    expect(rx.received[0]!.body).toMatchObject({ type: 'installation_setup', installationId: installation.id });
    expect(rx.received[0]!.headers['content-security-policy']).toBe("script-src 'self'");

    const list = await run(['integrations', 'installations', 'notifier']);
    expect(list.stdout).toContain(installation.id);
    const events = await run(['integrations', 'events', 'notifier', '--json']);
    expect(events.json.items).toHaveLength(1);
    expect(events.json.items[0].status).toBe('success');
    const ev = await run(['integrations', 'event', 'notifier', events.json.items[0].id]);
    expect(ev.stdout).toMatch(/info {2}POST http:\/\/127\.0\.0\.1:\d+\/events -> 200 in \d+ ms \(attempt 1\/3\)/);
    const follow = await run(['integrations', 'events', 'notifier', '--follow']);
    expect(follow.status).toBe(2);
    expect(follow.stderr).toMatch(/^Error: --follow: needs a server/);

    const un = await docs(['integrations', 'uninstall', 'notifier', installation.id, '--yes'], env);
    expect(un.stdout).toBe(`Uninstalled notifier (installation ${installation.id}). Install it again with: docs integrations install notifier\n`);
    expect(rx.received.map((r) => r.body.type)).toEqual(['installation_setup', 'installation_deleted']);
    expect((await run(['integrations', 'dev', 'notifier', '--off'])).stdout).toBe('Development mode of notifier is off.\n');
    expect((await run(['integrations', 'delete', 'notifier', '--yes'])).stdout).toBe(
      'Deleted integration notifier with its installations and events (not restorable).\n',
    );
    expect((await run(['integrations', 'get', 'notifier'])).status).toBe(3);
    for (const o of outputs) expect(o).not.toContain(SECRET);
  });

  it('refuses a bad manifest before calling anything, naming the field', async () => {
    const bad = join(files, 'bad.json');
    writeFileSync(bad, '{ nope');
    const r = await docs(['integrations', 'publish', 'x', '--manifest', bad], env);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^Error: --manifest: .*bad\.json is not JSON/);
    writeFileSync(bad, JSON.stringify({ title: 'x', description: 'd', scopes: [], script: 's' }));
    const short = await docs(['integrations', 'publish', 'x', '--manifest', bad], env);
    expect(short.status).toBe(2);
    expect(short.stderr).toMatch(/title/);
  });
});

describe('docs integrations, over HTTP', () => {
  let s: TestServer;
  let env: Record<string, string>;
  beforeAll(async () => {
    s = await startServer();
    env = { DOCS_API_URL: s.url, DOCS_TOKEN: s.token };
  });
  afterAll(() => s.stop());

  it('publishes, installs, and events --follow prints new events as they arrive', async () => {
    const pub = await docs(['integrations', 'publish', 'remote-one', '--manifest', manifestFile, '--script', scriptFile], env);
    expect(pub.stdout).toBe('Published remote-one version 1 (private).\n');
    const inst = await docs(['integrations', 'install', 'remote-one', '--json'], env);
    const installation = JSON.parse(inst.stdout);
    let ready!: () => void;
    const started = new Promise<void>((r) => (ready = r));
    const follower = docsAsync(['integrations', 'events', 'remote-one', '--follow', '--json', '--interval', '50', '--max', '2'], env, ready);
    await started;
    await s.api('PATCH', `/v1/integrations/remote-one/installations/${installation.id}`, { body: { configuration: { channel: '#a' } } });
    await s.api('DELETE', `/v1/integrations/remote-one/installations/${installation.id}`);
    const out = await follower;
    expect(out.status, out.stderr).toBe(0);
    const lines = out.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    // The existing event first, then the two new ones in the order they happened.
    expect(lines.map((e) => e.payload.type)).toEqual(['installation_setup', 'installation_setup', 'installation_deleted']);
    expect(lines[1].payload.previous).toEqual({ status: 'active', configuration: {} });
  });
});
