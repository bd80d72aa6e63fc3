import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openContext } from '../../src/open.js';
import { doctor } from '../../src/store/doctor.js';
import { fileName } from '../../src/store/file-backend.js';
import { catalogEntry, bucketFile, sumBucket } from '../../src/store/shard-files.js';
import { docs } from '../helpers/cli.js';
import { buildWorld } from '../helpers/world.js';
import { startServer, tempDir, TEST_TOKEN } from '../helpers/server.js';
import { Organizations } from '../../src/organizations/tables.js';

// docs doctor on a store with one of everything the API serves (the generated tests' world), plus
// every kind of file kept beside the shards: a file merged into a space (a revision's `files`),
// a file only in an open change request, an image, an OpenAPI version's documents, a rendered
// PDF. Doctor reports no damage and no unreferenced file, --repair finds nothing to move, and
// every file still downloads afterwards. A row naming an organization that does not exist is
// reported, even when its file matches its checksum.

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
let ids: Record<string, string>;

/** Every file of the space and of the open change request, downloaded through its signed link. */
async function downloads(): Promise<[string, number, string][]> {
  const s = await startServer({ dataDir: dir });
  try {
    const out: [string, number, string][] = [];
    for (const where of [`/v1/spaces/${ids.spaceId}/content/files`, `/v1/spaces/${ids.spaceId}/change-requests/${ids.filesCr}/content/files`]) {
      for (const f of (await s.api('GET', where)).body.items) {
        const r = await fetch(f.downloadURL);
        out.push([f.name, r.status, Buffer.from(await r.arrayBuffer()).toString('base64')]);
      }
    }
    const spec = await s.api('GET', `/v1/orgs/${ids.organizationId}/openapi/${ids.specSlug}/versions/${ids.versionId}/content`);
    out.push(['openapi', spec.status, '']);
    const pdf = await fetch((await s.api('GET', `/v1/spaces/${ids.spaceId}/pdf`)).body.url);
    out.push(['pdf', pdf.status, '']);
    return out.sort((a, b) => a[0].localeCompare(b[0]));
  } finally {
    await s.stop();
  }
}

beforeAll(async () => {
  const s = await startServer({ dataDir: dir });
  try {
    ids = (await buildWorld(s)).ids;
    // A file and an image only in an open change request (its revision), and a rendered PDF.
    const cr = (await s.api('POST', `/v1/spaces/${ids.spaceId}/change-requests`, { body: { subject: 'Files in review' } })).body;
    ids.filesCr = cr.id;
    const up = await s.api('POST', `/v1/spaces/${ids.spaceId}/change-requests/${cr.id}/content?compat=false`, {
      body: {
        changes: [
          {
            operation: 'insert_files',
            files: [
              { name: 'draft.txt', contentType: 'text/plain', base64: Buffer.from('draft').toString('base64') },
              { name: 'dot.png', contentType: 'image/png', base64: PNG.toString('base64') },
            ],
          },
        ],
      },
    });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect((await s.api('GET', `/v1/spaces/${ids.spaceId}/pdf`)).status).toBe(200);
    const settings = await s.api('PATCH', `/v1/orgs/${ids.organizationId}`, { body: { logo: 'https://example.com/logo.png' } });
    expect(settings.status).toBeLessThan(300);
  } finally {
    await s.stop();
  }
}, 120_000);

describe('docs doctor on a full world', () => {
  it('knows every file a row references: no damage, no orphan, --repair moves nothing, every file downloads', async () => {
    const before = await downloads();
    expect(before.map(([name, status]) => [name, status])).toEqual([
      ['dot.png', 200],
      ['draft.txt', 200],
      ['notes.txt', 200],
      ['notes.txt', 200],
      ['openapi', 200],
      ['pdf', 200],
    ]);
    expect(readdirSync(join(dir, 'files')).length).toBeGreaterThanOrEqual(3);
    expect(readdirSync(join(dir, 'openapi')).length).toBe(1);
    const healthy = await doctor(dir);
    expect(healthy.damaged).toEqual([]);
    expect(healthy.notes).toEqual([]); // no "file(s) no row references"
    expect(healthy.rows).toBeGreaterThan(50);
    expect(healthy.blobs).toBe(5); // three uploads, one OpenAPI version and its raw source (PDFs are a cache no row names)
    const r = await docs(['doctor', '--data', dir, '--repair', '--json']); // nothing to do: no confirmation needed
    expect(r.status, r.stderr).toBe(0);
    expect(r.json.damaged).toEqual([]);
    expect(r.json.plan).toEqual({ adopt: [], refused: [], move: [], lost: [] });
    expect(r.json.repaired).toBeUndefined();
    expect(existsSync(join(dir, 'quarantine'))).toBe(false);
    expect(await downloads()).toEqual(before);
  }, 120_000);

  it('a shard the catalog does not list is adopted, not quarantined (--adopt); an unreadable one is quarantined', async () => {
    const work = tempDir();
    try {
      const { cpSync } = await import('node:fs');
      cpSync(dir, work, { recursive: true });
      // The space's shard dropped from the catalog (as a file restored by hand, or written by another docs).
      const file = fileName(`space/${ids.spaceId}`);
      const bucket = join(work, 'checksums', bucketFile(sumBucket(file)));
      const sums = JSON.parse(readFileSync(bucket, 'utf8'));
      delete sums[file];
      writeFileSync(bucket, JSON.stringify(sums));
      const start = await docs(['spaces', 'get', ids.spaceId!, '--data', work], { DOCS_TOKEN: TEST_TOKEN });
      expect(start.status).toBe(1);
      expect(start.stderr).toContain(
        `store/${file} is not in the catalog of committed shards (written by another docs, or put there by hand): docs doctor --adopt checks it and takes it in`,
      );
      const plain = await docs(['doctor', '--data', work]);
      expect(plain.status).toBe(1);
      const adopt = await docs(['doctor', '--data', work, '--adopt', '--yes']);
      expect(adopt.stdout).toContain(`will adopt: store/${file} (`);
      expect(adopt.stdout).toContain(`adopted: store/${file}`);
      expect(adopt.status).toBe(1); // found a problem (now repaired)
      expect(existsSync(join(work, 'quarantine'))).toBe(false);
      expect((await docs(['doctor', '--data', work])).status).toBe(0);
      const back = await docs(['spaces', 'get', ids.spaceId!, '--data', work, '--json'], { DOCS_TOKEN: TEST_TOKEN });
      expect(back.status, back.stderr).toBe(0);
      expect(back.json.id).toBe(ids.spaceId);

      // A shard of rows the store's directories do not know (an organization copied in by hand):
      // adopted, its rows then found by id and listed like every other.
      const orgFile = fileName(`org/${ids.organizationId}`);
      const orgRow = JSON.parse(readFileSync(join(work, 'store', orgFile), 'utf8')).organizations[ids.organizationId!];
      writeFileSync(
        join(work, 'store', fileName('org/AdoptedOrg')),
        JSON.stringify({ organizations: { AdoptedOrg: { ...orgRow, id: 'AdoptedOrg', title: 'Adopted', hostname: undefined } } }),
      );
      expect((await docs(['doctor', '--data', work, '--adopt', '--yes'])).stdout).toContain(`adopted: store/${fileName('org/AdoptedOrg')}`);
      expect((await docs(['doctor', '--data', work])).status).toBe(0);
      const ctx = await openContext(work);
      try {
        expect(
          await ctx.store.read((tx) =>
            tx
              .all(Organizations)
              .map((o) => o.id)
              .sort(),
          ),
        ).toEqual(['AdoptedOrg', ids.organizationId].sort());
        expect(await ctx.store.read((tx) => tx.get(Organizations, 'AdoptedOrg')?.title)).toBe('Adopted');
      } finally {
        await ctx.store.close();
      }

      // A readable shard whose rows belong elsewhere is not adopted, and never moved.
      const stray = fileName(`space/${ids.spaceId}/0`);
      writeFileSync(
        join(work, 'store', stray),
        JSON.stringify({ spaces: { [ids.spaceId!]: { id: ids.spaceId, organization: ids.organizationId, title: 'x' } } }),
      );
      const refused = await docs(['doctor', '--data', work, '--repair', '--yes']);
      expect(refused.stdout).toContain(`not adopted: store/${stray} holds spaces ${ids.spaceId}, which belongs in shard space/${ids.spaceId}`);
      expect(refused.status).toBe(1);
      expect(existsSync(join(work, 'store', stray))).toBe(true);
      rmSync(join(work, 'store', stray));

      // An unreadable shard: the plan, then quarantine with --yes; the rest of the store stays.
      writeFileSync(join(work, 'store', stray), '{"spaces": {');
      const fixed = await docs(['doctor', '--data', work, '--repair', '--yes']);
      expect(fixed.stdout).toContain(`will move into quarantine/: store/${stray}`);
      expect(fixed.status).toBe(1);
      expect(existsSync(join(work, 'store', stray))).toBe(false);
      expect((await docs(['doctor', '--data', work])).status).toBe(0);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 120_000);

  it('reports a row of a missing organization', async () => {
    // A member row re-pointed at an organization that does not exist, checksum kept in step (as if
    // written so by a bug): the shard is sound, its reference is not.
    const file = fileName(`org/${ids.organizationId}`);
    const data = JSON.parse(readFileSync(join(dir, 'store', file), 'utf8'));
    const [memberId] = Object.keys(data.members);
    data.members[memberId!].organization = 'no-such-org';
    const text = JSON.stringify(data);
    writeFileSync(join(dir, 'store', file), text);
    const bucket = join(dir, 'checksums', bucketFile(sumBucket(file)));
    writeFileSync(bucket, JSON.stringify({ ...JSON.parse(readFileSync(bucket, 'utf8')), [file]: catalogEntry(text) }));
    const r = await doctor(dir);
    expect(r.damaged).toEqual([{ file: `store/${file}`, problem: `holds members ${memberId} of organization no-such-org, which does not exist` }]);
  }, 120_000);
});
