import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { expectContract } from '../helpers/contract.js';
import { tempDir, startServer } from '../helpers/server.js';

const files = tempDir('docs-conversations-files-');
const batch = join(files, 'batch.json');
const msg = (body: string) => ({ type: 'message', role: 'user', body });
writeFileSync(
  batch,
  JSON.stringify([
    { id: 't1', subject: 'Password reset', parts: [msg('The password reset email never arrives, I cannot reset my password.')] },
    { id: 't2', parts: [msg('Password reset link expired before I could reset my password.')] },
    { id: 't3', parts: [msg('Custom domain DNS CNAME verification keeps failing for our site.')] },
  ]),
);
const broken = join(files, 'broken.json');
writeFileSync(broken, '{"id": "x", "parts": [');

describe('docs conversations, in-process', () => {
  const env = { DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_conversations' };

  it('ingest --wait processes in this process; clusters, issues, list and get read the result', async () => {
    const r = await docs(['conversations', 'ingest', batch, '--wait'], env);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('Ingested 3 conversations: processed.\n');
    const clusters = (await docs(['conversations', 'clusters', '--order-by', 'issues', '--json'], env)).json;
    expectContract('GET', '/v1/orgs/x/conversations-clusters', 200, clusters);
    expect(clusters.items.map((c: any) => c.stats.issues)).toEqual([2, 1]);
    const table = (await docs(['conversations', 'clusters'], env)).stdout;
    expect(table).toContain('Password reset');
    const issues = (await docs(['conversations', 'issues', '--cluster', clusters.items[0].id, '--json'], env)).json;
    expect(issues.count).toBe(2);
    const one = (await docs(['conversations', 'issues', issues.items[0].issue.id, '--json'], env)).json;
    expect(one).toEqual(issues.items[0]);
    const got = (await docs(['conversations', 'get', one.conversation.id, '--json'], env)).json;
    expectContract('GET', '/v1/orgs/x/conversations/y', 200, got);
    expect(got.parts[0].role).toBe('user');
    const list = (await docs(['conversations', 'list', '--json'], env)).json;
    expect(list.count).toBe(3);
  });

  it('without --wait leaves them pending and says so; unreadable JSON is exit 2 before any request', async () => {
    const r = await docs(['conversations', 'ingest', batch], env);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('Ingested 3 conversations: processing pending.\n');
    expect(r.stderr).toContain('processed when `docs serve` runs on it');
    const bad = await docs(['conversations', 'ingest', broken], env);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^Error: file: cannot read JSON from .*broken\.json/);
  });
});

describe('docs conversations, over HTTP', () => {
  it('ingest --wait, then list and clusters, through the server; a refusal is the API error', async () => {
    const s = await startServer({ dataDir: tempDir(), token: 'gb_api_conversations_remote' });
    const env = { DOCS_API_URL: s.url, DOCS_TOKEN: 'gb_api_conversations_remote' };
    try {
      const r = await docs(['conversations', 'ingest', batch, '--wait', '--json'], env);
      expect(r.status, r.stderr).toBe(0);
      expect(r.json).toEqual({ ingested: 3, processed: true });
      const list = (await docs(['conversations', 'list', '--json'], env)).json;
      expect(list.items.every((c: any) => c.processedAt)).toBe(true);
      expect((await docs(['conversations', 'clusters', '--json'], env)).json.count).toBe(2);
      const bad = join(files, 'bad-role.json');
      writeFileSync(bad, JSON.stringify({ id: 'z', parts: [] }));
      const refused = await docs(['conversations', 'ingest', bad], env);
      expect(refused.status).toBe(2);
      expect(refused.stderr).toBe('Error: parts: must have at least one message\n');
    } finally {
      await s.stop();
    }
  });
});
