import { rmSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { doctor } from '../../src/store/doctor.js';
import { fileName } from '../../src/store/file-backend.js';
import { catalogEntry, bucketFile, sumBucket } from '../../src/store/shard-files.js';
import { buildWorld } from '../helpers/world.js';
import { startServer, tempDir } from '../helpers/server.js';

// docs doctor on a store with one of everything the API serves (the generated tests' world):
// no damage reported on a healthy store (no false alarm from any area's rows), and a row naming
// an organization that does not exist is reported, even when its file matches its checksum.

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('docs doctor on a full world', () => {
  it('reports nothing on the healthy store, and a row of a missing organization when there is one', async () => {
    const s = await startServer({ dataDir: dir });
    const w = await buildWorld(s);
    await s.stop();
    const healthy = await doctor(dir);
    expect(healthy.damaged).toEqual([]);
    expect(healthy.rows).toBeGreaterThan(50);
    // A member row re-pointed at an organization that does not exist, checksum kept in step (as if
    // written so by a bug): the shard is sound, its reference is not.
    const file = fileName(`org/${w.ids.organizationId}`);
    const data = JSON.parse(readFileSync(join(dir, 'shards', file), 'utf8'));
    const [memberId] = Object.keys(data.members);
    data.members[memberId!].organization = 'no-such-org';
    const text = JSON.stringify(data);
    writeFileSync(join(dir, 'shards', file), text);
    const bucket = join(dir, 'checksums', bucketFile(sumBucket(file)));
    writeFileSync(bucket, JSON.stringify({ ...JSON.parse(readFileSync(bucket, 'utf8')), [file]: catalogEntry(text) }));
    const r = await doctor(dir);
    expect(r.damaged).toEqual([{ file: `shards/${file}`, problem: `holds members ${memberId} of organization no-such-org, which does not exist` }]);
  }, 120_000);
});
