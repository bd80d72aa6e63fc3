import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { wellFormedLinks } from '../../src/content/push-context.js';
import { forgetTrees } from '../../src/content/revisions.js';
import { treeWork } from '../../src/content/tree.js';
import { digestWork, pushDigestRoute } from '../../src/push-digest.js';
import { PushDigestPatches, PushDigests } from '../../src/content/tables.js';
import { LocalTransport } from '../../src/transport/local.js';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';

// Issue 28 item 2: a page written from a pushed file (`source`) keeps, with the file's SHA-256,
// what its links depended on when written (src/content/push-context.ts); GET /_docs/push-digest
// gives the page tree with them and no markdown, and the bodies of the pages asked for, over
// HTTP and in-process alike. A record that is stale or malformed is not given.

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
let server: TestServer;
let space: string;
const ids: Record<string, string> = {};
const SOURCE_A = '# A\n\nSee [B](b.md) and ![logo](logo.png).\n';

beforeAll(async () => {
  server = await startServer();
  const org = (await server.api('GET', '/v1/orgs')).body.items[0].id;
  space = (await server.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Digest' } })).body.id;
  const cr = (await server.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'seed' } })).body.id;
  const res = await server.api('POST', `/v1/spaces/${space}/change-requests/${cr}/content?compat=false`, {
    body: {
      changes: [
        { operation: 'insert_files', files: [{ name: 'logo.png', contentType: 'image/png', base64: Buffer.from('png').toString('base64') }] },
        { operation: 'insert_page', ref: 'a', title: 'A', slug: 'a', document: { markdown: '' } },
        { operation: 'insert_page', ref: 'b', title: 'B', slug: 'b', description: 'Bee', document: { markdown: 'Plain.\n' } },
      ],
    },
  });
  expect(res.status).toBe(200);
  for (const c of res.body.changes) if (c.ref) ids[c.ref] = c.page.id;
  // As push sends a page: its body in the canonical relative form, and the file it was made from.
  const upd = await server.api('POST', `/v1/spaces/${space}/change-requests/${cr}/content?compat=false`, {
    body: {
      changes: [{ operation: 'update_page', page: ids.a, document: { markdown: 'See [B](./b.md) and ![logo](./logo.png).\n' }, source: SOURCE_A }],
    },
  });
  expect(upd.status).toBe(200);
  expect((await server.api('POST', `/v1/spaces/${space}/change-requests/${cr}/merge`)).status).toBe(200);
});
afterAll(() => server.stop());

const digest = async (query = '') => {
  const res = await server.docs('GET', `/_docs/push-digest?space=${space}${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

describe('GET /_docs/push-digest', () => {
  it("gives the tree without markdown, and a pushed page's file hash with what its links depended on", async () => {
    const body = await digest();
    expect(JSON.stringify(body)).not.toContain('See [B]');
    const [a, b] = body.pages;
    expect(a).toMatchObject({ id: ids.a, type: 'document', title: 'A', path: 'a', pages: [] });
    expect(a.source.sha).toBe(sha(SOURCE_A));
    expect(a.source.links).toEqual({
      at: ['a', 1],
      paths: [['b', 1]],
      names: [['logo.png', 1]],
      pages: [[ids.b, 'b']],
      files: [[expect.any(String), 'logo.png']],
    });
    // A page not written from a file has none.
    expect(b).toEqual({ id: ids.b, type: 'document', title: 'B', path: 'b', description: 'Bee', pages: [] });
    expect(body.files).toEqual([{ id: expect.any(String), name: 'logo.png', size: 3, sha: sha('png') }]);
    expect(body.bodies).toBeUndefined();
    // In-process, the same answer.
    const local = await LocalTransport.as(server.ctx, server.token, undefined, 'test');
    expect((await local.docs('GET', '/_docs/push-digest', { query: { space } })).body).toEqual(body);
  });

  it('gives the bodies asked for: markdown as listPages has it, link offsets, the kept file', async () => {
    const body = await digest(`&bodies=${ids.a}`);
    const listed = (await server.api('GET', `/v1/spaces/${space}/content/pages`)).body.pages;
    expect(Object.keys(body.bodies)).toEqual([ids.a]);
    expect(body.bodies[ids.a!].markdown).toBe(listed[0].markdown);
    expect(body.bodies[ids.a!].source).toBe(SOURCE_A);
    const m = body.bodies[ids.a!].markdown as string;
    const l = body.bodies[ids.a!].links as number[];
    expect([m.slice(l[0], l[1]), m.slice(l[2], l[3])]).toEqual([`/pages/${ids.b}`, expect.stringMatching(/^\/files\//)]);
    expect(Object.keys((await digest('&bodies=all')).bodies).sort()).toEqual([ids.a, ids.b].sort());
  });

  it('with tree=false gives the same bodies and no page tree, and makes no digest of it', async () => {
    for (const bodies of [ids.a, 'all']) {
      const whole = await digest(`&bodies=${bodies}`);
      const before = digestWork.made;
      const only = await digest(`&bodies=${bodies}&tree=false`);
      expect(digestWork.made - before).toBe(0);
      expect(only.pages).toBeUndefined();
      expect(only).toEqual({ ...whole, pages: undefined });
    }
  });

  it('a record that is malformed is never used; one made stale (the body edited otherwise) is not given: the page is compared in full', async () => {
    const { at, ...rest } = (await digest()).pages[0].source.links;
    expect(wellFormedLinks({ at, ...rest })).toBe(true);
    expect(wellFormedLinks(rest)).toBe(false);
    expect(wellFormedLinks({ at, ...rest, paths: [['b', 3]] })).toBe(false);
    expect(wellFormedLinks({ at, ...rest, pages: [[1, 'b']] })).toBe(false);
    expect(wellFormedLinks('x')).toBe(false);
    // The body edited through the API (no file with it): the kept file is stale, no hash given.
    const cr = (await server.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'edit' } })).body.id;
    const res = await server.api('POST', `/v1/spaces/${space}/change-requests/${cr}/content`, {
      body: { changes: [{ operation: 'update_page', page: ids.a, document: { markdown: 'Edited in the app.\n' } }] },
    });
    expect(res.status).toBe(200);
    expect((await server.docs('GET', `/_docs/push-digest?space=${space}&changeRequest=${cr}`)).body.pages[0].source).toBeUndefined();
    expect((await digest()).pages[0].source.sha).toBe(sha(SOURCE_A)); // the space itself: unchanged until merged
  });

  it('answers only a caller who sees the space; bad input is a 400', async () => {
    const stranger = await addUser(server.ctx);
    expect((await server.docs('GET', `/_docs/push-digest?space=${space}`, { token: stranger.token })).status).toBe(404);
    expect((await server.docs('GET', `/_docs/push-digest?space=${space}`, { token: null })).status).toBe(401);
    const missing = await server.docs('GET', '/_docs/push-digest');
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toMatch(/space: required/);
    const many = await server.docs('GET', `/_docs/push-digest?space=${space}&bodies=${Array.from({ length: 201 }, (_, i) => `p${i}`).join(',')}`);
    expect(many.status).toBe(400);
    expect(JSON.stringify(many.body)).toMatch(/bodies: at most 200 page ids/);
    for (const [query, message] of [
      ['&tree=false', /tree=false: only with bodies/],
      [`&bodies=${ids.a}&tree=true`, /tree: `false`/],
    ] as const) {
      const bad = await server.docs('GET', `/_docs/push-digest?space=${space}${query}`);
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body)).toMatch(message);
    }
    expect((await server.docs('PUT', `/_docs/push-digest?space=${space}`)).status).toBe(405);
    // Keeping is asked for the space itself, by whoever sees it.
    expect((await server.docs('POST', `/_docs/push-digest?space=${space}`, { token: stranger.token })).status).toBe(404);
    expect((await server.docs('POST', `/_docs/push-digest?space=${space}&bodies=all`)).status).toBe(400);
    expect((await server.docs('POST', `/_docs/push-digest?space=${space}&changeRequest=x`)).status).toBe(400);
  });
});

describe('POST /_docs/push-digest: the digest kept for the next unchanged push', () => {
  const nodeLoads = async (query = '') => {
    forgetTrees();
    const before = treeWork.visits;
    const body = await digest(query);
    return { body, loads: treeWork.visits - before };
  };

  it('gives the same digest from one row, no page node read, while the tree is the one it was made from', async () => {
    const made = await nodeLoads();
    expect(made.body.kept).toBe(false);
    expect(made.loads).toBeGreaterThan(0);
    const keep = await server.docs('POST', `/_docs/push-digest?space=${space}`);
    expect(keep.status).toBe(200);
    expect(keep.body.kept).toBe(true);
    const kept = await nodeLoads();
    expect(kept.loads).toBe(0);
    expect(kept.body).toEqual({ ...made.body, kept: true });
    // Bodies and change requests are read from the tree, as before.
    expect((await nodeLoads(`&bodies=${ids.a}`)).loads).toBeGreaterThan(0);

    // The tree moves (a merge): the kept digest is not used; the new one is made from the nodes.
    const cr = (await server.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'rename' } })).body.id;
    await server.api('POST', `/v1/spaces/${space}/change-requests/${cr}/content?compat=false`, {
      body: { changes: [{ operation: 'update_page', page: ids.b, title: 'Bee page' }] },
    });
    expect((await server.api('POST', `/v1/spaces/${space}/change-requests/${cr}/merge`)).status).toBe(200);
    const moved = await nodeLoads();
    expect(moved.body.kept).toBe(false);
    expect(moved.loads).toBeGreaterThan(0);
    expect(moved.body.pages.map((p: any) => p.title)).toEqual(['A', 'Bee page']);
  });

  it("a duplicate's digest is made from its own tree, not taken from the row copied with its content", async () => {
    expect((await server.docs('POST', `/_docs/push-digest?space=${space}`)).status).toBe(200);
    const copy = await server.api('POST', `/v1/spaces/${space}/duplicate`);
    expect(copy.status).toBe(201);
    const own = (await server.api('GET', `/v1/spaces/${copy.body.id}/content/pages`)).body.pages.map((p: any) => p.id);
    const got = await server.docs('GET', `/_docs/push-digest?space=${copy.body.id}`);
    expect(got.body.kept).toBe(false);
    expect(got.body.pages.map((p: any) => p.id)).toEqual(own);
  });

  it('is made once per request, not in each run of the read (the store runs a read again after each round of loads)', async () => {
    const ctx = server.ctx;
    // The store's contract: a read's function may run several times. Here each runs twice.
    const read = (fn: (tx: any) => unknown) => ctx.store.read((tx) => (fn(tx), fn(tx)));
    const store = new Proxy(ctx.store, {
      get: (t, k) => (k === 'read' ? read : typeof Reflect.get(t, k) === 'function' ? Reflect.get(t, k).bind(t) : Reflect.get(t, k)),
    });
    const twice = { ...ctx, store } as typeof ctx;
    const caller = { userId: (await server.api('GET', '/v1/user')).body.id };
    const cr = (await server.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'move on' } })).body.id;
    await server.api('POST', `/v1/spaces/${space}/change-requests/${cr}/content?compat=false`, {
      body: { changes: [{ operation: 'update_page', page: ids.b, title: 'B again' }] },
    });
    expect((await server.api('POST', `/v1/spaces/${space}/change-requests/${cr}/merge`)).status).toBe(200);
    for (const method of ['GET', 'POST']) {
      forgetTrees();
      const before = digestWork.made;
      const res = await pushDigestRoute(twice, caller, method, { space });
      expect(res.status).toBe(200);
      expect(digestWork.made - before).toBe(1);
    }
    const kept = await pushDigestRoute(twice, caller, 'GET', { space });
    expect((kept.body as { kept: boolean }).kept).toBe(true);
  });

  it("a merge that changes pages' own fields keeps their entries as a patch, not the whole digest again; the digest given is the nodes'", async () => {
    const rows = () => server.ctx.store.read((tx) => ({ digest: tx.get(PushDigests, space), patch: tx.get(PushDigestPatches, space) }));
    const fromNodes = async () => {
      // The kept rows set aside: the digest made from the nodes, for comparison.
      const kept = await rows();
      await server.ctx.store.write((tx) => {
        tx.delete(PushDigests, space);
        if (kept.patch) tx.delete(PushDigestPatches, space);
      });
      forgetTrees();
      const made = await digest();
      expect(made.kept).toBe(false);
      await server.ctx.store.write((tx) => {
        if (kept.digest) tx.put(PushDigests, kept.digest);
        if (kept.patch) tx.put(PushDigestPatches, kept.patch);
      });
      return made.pages;
    };
    const merge = async (changes: unknown[]) => {
      const cr = (await server.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'edit' } })).body.id;
      expect((await server.api('POST', `/v1/spaces/${space}/change-requests/${cr}/content?compat=false`, { body: { changes } })).status).toBe(200);
      expect((await server.api('POST', `/v1/spaces/${space}/change-requests/${cr}/merge`)).status).toBe(200);
    };
    // Pages enough for a patch of one to be small beside the digest (a patch past an eighth of it is not kept).
    await merge(
      Array.from({ length: 45 }, (_, i) => ({
        operation: 'insert_page',
        title: `A filler page, number ${i} of the test`,
        slug: `filler-${i}`,
        document: { markdown: `Page ${i}.\n` },
      })),
    );
    expect((await server.docs('POST', `/_docs/push-digest?space=${space}`)).status).toBe(200);
    const base = (await rows()).digest!;
    // As a push: the bodies of the pages it changes read (their tree materialized), then the merge.
    await digest(`&bodies=${ids.a}`);
    const edited = '# A\n\nSee [B](b.md) and ![logo](logo.png), once more.\n';
    await merge([{ operation: 'update_page', page: ids.a, document: { markdown: 'See [B](./b.md) and ![logo](./logo.png), once more.\n' }, source: edited }]);
    const made = digestWork.made;
    expect((await server.docs('POST', `/_docs/push-digest?space=${space}`)).status).toBe(200);
    expect(digestWork.made).toBe(made);
    const after = await rows();
    expect(after.digest).toEqual(base);
    expect(after.patch).toMatchObject({ base: base.tree });
    expect(Object.keys(JSON.parse(after.patch!.entries))).toEqual([ids.a]);
    const got = await digest();
    expect(got.kept).toBe(true);
    expect(got.pages.find((p: any) => p.id === ids.a).source.sha).toBe(sha(edited));
    expect(got.pages).toEqual(await fromNodes());

    // Again: the patch holds both merges' changes, over the same digest.
    await digest(`&bodies=${ids.b}`);
    await merge([{ operation: 'update_page', page: ids.b, title: 'B, patched' }]);
    expect((await server.docs('POST', `/_docs/push-digest?space=${space}`)).status).toBe(200);
    const twice = await rows();
    expect(twice.digest).toEqual(base);
    expect(Object.keys(JSON.parse(twice.patch!.entries)).sort()).toEqual([ids.a, ids.b].sort());
    expect((await digest()).pages).toEqual(await fromNodes());

    // A page moved (paths change): the digest is made again, the patch goes.
    await digest(`&bodies=${ids.b}`);
    await merge([{ operation: 'update_page', page: ids.b, slug: 'bee' }]);
    expect((await server.docs('POST', `/_docs/push-digest?space=${space}`)).status).toBe(200);
    const moved = await rows();
    expect(moved.digest!.tree).not.toBe(base.tree);
    expect(moved.patch).toBeUndefined();
    const now = await digest();
    expect(now.kept).toBe(true);
    expect(now.pages.map((p: any) => p.path).slice(0, 2)).toEqual(['a', 'bee']);
    expect(now.pages).toEqual(await fromNodes());
  });
});
