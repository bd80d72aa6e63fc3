import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../../src/auth/bootstrap.js';
import { DocsError } from '../../src/kernel/errors.js';
import { openContext } from '../../src/open.js';
import { HttpTransport } from '../../src/transport/http.js';
import { LocalTransport } from '../../src/transport/local.js';
import type { Transport } from '../../src/transport/types.js';
import { startServer, TEST_TOKEN, type TestServer } from '../helpers/server.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000003000000020806000000', 'hex');

/** Content, as a list of observable outcomes (bodies, statuses, error kinds, downloaded bytes). */
async function scenario(t: Transport) {
  const out: unknown[] = [];
  const step = async (fn: () => Promise<{ status: number; body: unknown; headers: Record<string, string> }>) => {
    try {
      const r = await fn();
      out.push(r.status, r.body, r.headers.location ?? r.headers.Location ?? null);
      return r.body as any;
    } catch (e) {
      out.push(e instanceof DocsError ? { kind: e.kind, message: e.message } : String(e));
      return undefined;
    }
  };
  const org = ((await t.call('listOrganizationsForAuthenticatedUser')).body as any).items[0].id;
  const space = await step(() => t.call('createSpace', { path: { organizationId: org }, body: { title: 'Docs' } }));
  const spaceId = space.id;
  const cr = await step(() => t.call('createChangeRequest', { path: { spaceId }, body: { subject: 'First' } }));
  const changeRequestId = cr.id;
  const changes = [
    { operation: 'insert_files', files: [{ name: 'dot.png', ref: 'dot', contentType: 'image/png', base64: PNG.toString('base64') }] },
    { operation: 'insert_page', ref: 'a', document: { markdown: '# Alpha\n\nSee [beta](./b.md) and ![dot](./dot).\n\n## Usage\n\nRun it.' } },
    { operation: 'insert_page', ref: 'b', title: 'Beta', into: 'a', document: { markdown: 'Broken [link](./nowhere.md).' } },
  ];
  const res = await step(() => t.call('updateChangeRequestContent', { path: { spaceId, changeRequestId }, query: { compat: false }, body: { changes } }));
  await step(() => t.call('updateChangeRequestContent', { path: { spaceId, changeRequestId }, body: { changes: [{ operation: 'delete_page', page: 'nope' }] } }));
  await step(() => t.call('mergeChangeRequest', { path: { spaceId, changeRequestId: '1' } }));
  await step(() => t.call('mergeChangeRequest', { path: { spaceId, changeRequestId: '1' } }));
  await step(() => t.call('getCurrentRevision', { path: { spaceId } }));
  await step(() => t.call('getPageByPath', { path: { spaceId, pagePath: 'alpha/beta' }, query: { format: 'document' } }));
  await step(() => t.call('searchSpaceContent', { path: { spaceId }, query: { query: 'run' } }));
  await step(() => t.call('listSpaceLinks', { path: { spaceId }, query: { status: 'broken' } }));
  await step(() => t.call('listSpaceFileBacklinks', { path: { spaceId, fileId: res.insertedFiles[0].id } }));
  await step(() => t.call('applyTemplateToSpace', { path: { spaceId }, body: { id: 'nope' } }));
  const files = await step(() => t.call('listFiles', { path: { spaceId } }));
  out.push((await t.download(files.items[0].downloadURL)).equals(PNG));
  return out;
}

/** Ids, hashes, signatures, times, cursors and the base URL differ between two stores; nothing else may. */
function normalize(value: unknown, base: string): unknown {
  const ids = new Map<string, string>();
  const walk = (v: any): any => {
    if (typeof v === 'string') {
      let s = v.split(base).join('{base}').replace(/\b[0-9a-f]{64}\b/g, '{sha}').replace(/sig=[A-Za-z0-9_-]+/g, 'sig={sig}').replace(/exp=\d+/g, 'exp={exp}');
      s = s.replace(/\b[A-Za-z0-9]{20}\b/g, (id) => {
        if (!ids.has(id)) ids.set(id, `{id${ids.size}}`);
        return ids.get(id)!;
      });
      return /^\d{4}-\d\d-\d\dT/.test(s) ? '{time}' : s;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === 'page' && typeof x === 'string' && !/^[A-Za-z0-9]{20}$/.test(x) ? '{cursor}' : walk(x)]));
    return v;
  };
  return walk(value);
}

describe('content: transport parity', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  it('gives the same results in-process and over HTTP, downloads included', async () => {
    const ctx = await openContext(undefined, { baseUrl: 'http://local.test' });
    const boot = await bootstrap(ctx, 'gb_api_local');
    const local = LocalTransport.as(ctx, undefined, { userId: boot!.userId }, 'memory');
    const a = normalize(await scenario(local), 'http://local.test') as unknown[];
    const b = normalize(await scenario(new HttpTransport(server.url, TEST_TOKEN)), server.url);
    expect(a).toEqual(b);
    for (const kind of ['conflict', 'invalid']) expect(JSON.stringify(a)).toContain(`"kind":"${kind}"`);
    expect(a[a.length - 1]).toBe(true);
    await ctx.store.close();
  });
});
