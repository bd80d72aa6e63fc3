import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openContext } from '../../src/open.js';
import { BIN, spawnServe } from '../helpers/cli.js';
import { tempDir } from '../helpers/server.js';
import { ChangeRequests } from '../../src/change-requests/tables.js';
import { Comments } from '../../src/comments/tables.js';
import { Spaces } from '../../src/spaces/tables.js';

// No lost writes under concurrency: 50 HTTP clients create, rename and delete spaces in
// collections while in-process CLI commands write to the same data directory (they are sent to
// the server holding it), and open and merge change requests in a few spaces. Afterwards every
// acknowledged write is in the store, every shard parses, and the counts the API reports (spaces
// per collection, open change requests per space, open comments per space and per change
// request) agree with the records and the clients' logs. The clients also post comments on those
// spaces and their change requests (merged ones too: discussions stay open), resolve and delete
// their own; a space's `comments` counts only its own open comments, a change request's its own.

const TOKEN = 'gb_api_concurrency';
const CLIENTS = Number(process.env.STRESS_CLIENTS ?? 50);
const REQUESTS = Number(process.env.STRESS_REQUESTS ?? 2000);

function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env } });
    let out = '';
    c.stdout.on('data', (d) => (out += d));
    c.on('exit', (code) => resolve({ code, out }));
  });
}

describe('no lost writes under concurrency', () => {
  it(`${CLIENTS} HTTP clients and CLI commands on one data directory`, async () => {
    const dir = tempDir();
    const s = await spawnServe(['--data', dir, '--quiet'], { DOCS_BOOTSTRAP_TOKEN: TOKEN });
    const h = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    const org = ((await (await fetch(`${s.url}/v1/orgs`, { headers: h })).json()) as any).items[0].id;
    const collections: string[] = [];
    for (let i = 0; i < 4; i++)
      collections.push(
        ((await (await fetch(`${s.url}/v1/orgs/${org}/collections`, { method: 'POST', headers: h, body: JSON.stringify({ title: `C${i}` }) })).json()) as any)
          .id,
      );

    const crSpaces: string[] = [];
    for (let i = 0; i < 3; i++)
      crSpaces.push(
        ((await (await fetch(`${s.url}/v1/orgs/${org}/spaces`, { method: 'POST', headers: h, body: JSON.stringify({ title: `CR${i}` }) })).json()) as any).id,
      );

    const created = new Map<string, string>(); // space -> collection
    const crCreated = new Map<string, string>(); // change request -> space
    const crMerged = new Set<string>();
    const deleted = new Set<string>();
    const renamed = new Map<string, string>();
    // Acknowledged comments: where they are, and what the clients last did to them.
    const comments = new Map<string, { space: string; cr?: string; status: 'open' | 'resolved' | 'deleted' }>();
    let next = 0;
    const client = async () => {
      const mine: string[] = [];
      const myCrs: [string, string][] = [];
      const myCrsAll: [string, string][] = []; // merged ones included: they still take comments
      const myComments: string[] = [];
      while (next < REQUESTS) {
        const i = next++;
        if (i % 10 === 4) {
          // Comments: post on a space or on one of our change requests; resolve or delete one of ours.
          const step = Math.floor(i / 10) % 4;
          const target = step === 1 ? myCrsAll[i % (myCrsAll.length || 1)] : undefined;
          if (step >= 2 && myComments.length) {
            const id = myComments.shift()!;
            const c = comments.get(id)!;
            const url = `${s.url}/v1/spaces/${c.space}${c.cr ? `/change-requests/${c.cr}` : ''}/comments/${id}`;
            if (step === 2) {
              const r = await fetch(url, { method: 'PUT', headers: h, body: JSON.stringify({ resolved: true }) });
              if (r.status === 200) c.status = 'resolved';
              await r.arrayBuffer();
            } else {
              const r = await fetch(url, { method: 'DELETE', headers: h });
              if (r.status === 205) c.status = 'deleted';
              await r.arrayBuffer();
            }
          } else {
            const [space, cr] = target ?? [crSpaces[i % crSpaces.length]!, undefined];
            const r = await fetch(`${s.url}/v1/spaces/${space}${cr ? `/change-requests/${cr}` : ''}/comments`, {
              method: 'POST',
              headers: h,
              body: JSON.stringify({ body: { markdown: `Comment ${i}` } }),
            });
            // The contract answers a posted comment with 200 (not 201).
            if (r.status === 200) {
              const id = ((await r.json()) as any).id;
              comments.set(id, { space, ...(cr ? { cr } : {}), status: 'open' });
              myComments.push(id);
            } else await r.arrayBuffer();
          }
        } else if (i % 10 === 9) {
          // Change requests: open one, or merge one of ours (a 409 when its space moved on since).
          const mergeable = i % 20 === 19 && myCrs.length ? myCrs.shift() : undefined;
          if (mergeable) {
            const [space, cr] = mergeable;
            const r = await fetch(`${s.url}/v1/spaces/${space}/change-requests/${cr}/merge`, { method: 'POST', headers: { authorization: h.authorization } });
            if (r.status === 200) crMerged.add(cr);
            await r.arrayBuffer();
          } else {
            const space = crSpaces[i % crSpaces.length]!;
            const r = await fetch(`${s.url}/v1/spaces/${space}/change-requests`, { method: 'POST', headers: h, body: JSON.stringify({ subject: `CR ${i}` }) });
            if (r.status === 201) {
              const id = ((await r.json()) as any).id;
              crCreated.set(id, space);
              myCrs.push([space, id]);
              myCrsAll.push([space, id]);
            } else await r.arrayBuffer();
          }
        } else if (i % 4 === 2 && mine.length) {
          const id = mine[i % mine.length]!;
          const title = `R${i}`;
          const r = await fetch(`${s.url}/v1/spaces/${id}`, { method: 'PATCH', headers: h, body: JSON.stringify({ title }) });
          if (r.status === 200) renamed.set(id, title);
          else await r.arrayBuffer();
        } else if (i % 4 === 3 && mine.length > 2) {
          const id = mine.shift()!;
          const r = await fetch(`${s.url}/v1/spaces/${id}`, { method: 'DELETE', headers: h });
          if (r.status === 205) deleted.add(id);
          await r.arrayBuffer();
        } else {
          const parent = collections[i % collections.length]!;
          const r = await fetch(`${s.url}/v1/orgs/${org}/spaces`, { method: 'POST', headers: h, body: JSON.stringify({ title: `S${i}`, parent }) });
          if (r.status === 201) {
            const id = ((await r.json()) as any).id;
            created.set(id, parent);
            mine.push(id);
          } else await r.arrayBuffer();
        }
      }
    };
    const cliCreated: string[] = [];
    const cliRuns = (async () => {
      for (let i = 0; i < 6; i++) {
        const r = await cli(['spaces', 'create', '--title', `From CLI ${i}`, '--org', org, '--json'], { DOCS_DATA: dir });
        expect(r.code).toBe(0);
        cliCreated.push(JSON.parse(r.out).id);
      }
    })();
    await Promise.all([...Array.from({ length: CLIENTS }, client), cliRuns]);
    // Counts the API reports agree with the records, while the server still runs.
    for (const c of collections) {
      const listed = (await (await fetch(`${s.url}/v1/collections/${c}/spaces?limit=1000`, { headers: h })).json()) as any;
      const expectedHere = [...created].filter(([id, p]) => p === c && !deleted.has(id)).length;
      expect(listed.count, `spaces in collection ${c}`).toBe(expectedHere);
      expect(listed.items.length).toBe(expectedHere);
    }
    for (const space of crSpaces) {
      const open = [...crCreated].filter(([id, sp]) => sp === space && !crMerged.has(id)).length;
      const got = (await (await fetch(`${s.url}/v1/spaces/${space}`, { headers: h })).json()) as any;
      expect(got.changeRequestsOpen, `open change requests in ${space}`).toBe(open);
      expect(got.changeRequests).toBe([...crCreated.values()].filter((sp) => sp === space).length);
      const listed = (await (await fetch(`${s.url}/v1/spaces/${space}/change-requests?status=open&limit=1000`, { headers: h })).json()) as any;
      expect(listed.count).toBe(open);
      const openHere = [...comments.values()].filter((c) => c.space === space && !c.cr && c.status === 'open').length;
      expect(got.comments, `open comments of space ${space}`).toBe(openHere);
    }
    // Each change request's `comments`: its own open comments (merged ones included).
    const openOn = (cr: string) => [...comments.values()].filter((c) => c.cr === cr && c.status === 'open').length;
    for (const [cr, space] of crCreated) {
      const got = (await (await fetch(`${s.url}/v1/spaces/${space}/change-requests/${cr}`, { headers: h })).json()) as any;
      expect(got.comments, `open comments of change request ${cr}`).toBe(openOn(cr));
    }
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);

    for (const f of readdirSync(join(dir, 'store'))) expect(() => JSON.parse(readFileSync(join(dir, 'store', f), 'utf8'))).not.toThrow();
    const ctx = await openContext(dir);
    const rows = new Map((await ctx.store.read((tx) => tx.all(Spaces))).map((r) => [r.id, r]));
    for (const [id, parent] of created) {
      const row = rows.get(id)!;
      expect(row, `created ${id}`).toBeDefined();
      expect(row.parent).toBe(parent);
      expect(Boolean(row.deletedAt), `deleted ${id}`).toBe(deleted.has(id));
      if (renamed.has(id)) expect(row.title).toMatch(/^R\d+$/);
    }
    for (const id of cliCreated) expect(rows.get(id)?.title).toMatch(/^From CLI \d$/);
    // Change requests: every acknowledged one is there, merged exactly when acknowledged so.
    const crs = new Map((await ctx.store.read((tx) => tx.all(ChangeRequests))).map((r) => [r.id, r]));
    for (const [id, space] of crCreated) {
      expect(crs.get(id)?.space, `change request ${id}`).toBe(space);
      expect(crs.get(id)!.status).toBe(crMerged.has(id) ? 'merged' : 'open');
    }
    expect(crCreated.size).toBeGreaterThan(REQUESTS / 20);
    expect(crMerged.size).toBeGreaterThan(0);
    // Comments: every acknowledged one is there with the status last acknowledged, or gone when
    // deleted; no row the clients did not post.
    const commentRows = new Map((await ctx.store.read((tx) => tx.all(Comments))).map((r) => [r.id, r]));
    for (const [id, c] of comments) {
      const row = commentRows.get(id)!;
      if (c.status === 'deleted') expect(row, `deleted comment ${id}`).toBeUndefined();
      else {
        expect(row, `comment ${id}`).toBeDefined();
        expect([row.space, row.changeRequest, row.status]).toEqual([c.space, c.cr, c.status]);
      }
    }
    expect(commentRows.size).toBe([...comments.values()].filter((c) => c.status !== 'deleted').length);
    const done = (st: string) => [...comments.values()].filter((c) => c.status === st).length;
    expect(
      [done('open'), done('resolved'), done('deleted')].every((x) => x > 0),
      'posted, resolved and deleted some',
    ).toBe(true);
    expect(
      [...crCreated.keys()].some((cr) => openOn(cr) > 0),
      'some change request has open comments',
    ).toBe(true);
    expect(created.size).toBeGreaterThan(REQUESTS / 4);
    await ctx.store.close();
  }, 600_000);
});
