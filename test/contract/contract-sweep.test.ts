import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_IDS } from '../../src/operations.js';
import { recordContract, type ContractCheck } from '../helpers/contract.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { buildWorld, type World } from '../helpers/world.js';
import { caseOrder, closeCaseServers, prepareCase, routeOf } from '../reliability/least-role.js';
import { FULL, sample, sampleNote } from '../helpers/sample.js';

// The contract sweep: every served operation called with real ids on the prepared world (the
// cases of the authorization matrix, test/reliability/least-role.ts, each as its least role),
// and every 2xx body (the world's own making included) validated against both specs:
// @gitbook/api 0.146.0 and 0.202.0 (docs/manual/contract.md#the-newest-spec-is-part-of-the-contract). Reports, per spec, the invalid bodies
// and the operations they come from; the target is 0 under both.
//
// The whole sweep takes about a minute on a shared machine: `npm test` runs a seeded sample of the
// operations (test/helpers/sample.ts: the seed printed, DOCS_TEST_SEED repeats it), `npm run
// test:full` every one. (The authorization matrix, test/reliability/least-role.test.ts, checks
// every answer it gets against both specs too, by s.api.)

const SAMPLE = 40;

let s: TestServer;
let world: World;
const seen: { method: string; path: string; status: number; check: ContractCheck }[] = [];
let stopRecording: () => void;

describe('contract sweep: every 2xx body of every operation, under both specs', () => {
  beforeAll(async () => {
    s = await startServer({ allowPrivateTunnels: true });
    stopRecording = recordContract((method, path, status, check) => seen.push({ method, path, status, check }));
    world = await buildWorld(s);
  }, 60_000);
  afterAll(async () => {
    stopRecording?.();
    closeCaseServers();
    await s?.stop();
  });

  it('finds no invalid body under 0.146.0 nor under 0.202.0', async () => {
    const failed: string[] = [];
    const all = caseOrder(OPERATION_IDS);
    const ops = sample(all, SAMPLE, 'contract-sweep', { withPrevious: (id) => routeOf(id)[0] !== 'GET' });
    for (const operationId of ops) {
      try {
        const { method, url, body, headers, me } = await prepareCase(s, world, operationId, { lesser: false });
        const r = await s.api(method, url, { token: me.token, body, headers });
        if (r.status >= 300) failed.push(`${operationId}: ${method} ${url} -> ${r.status} ${JSON.stringify(r.body).slice(0, 160)}`);
      } catch (err) {
        failed.push(`${operationId}: ${(err as Error).message.split('\n')[0]}`);
      }
    }
    const report = (spec: 'pinned' | 'latest') => {
      const bad = seen.filter((x) => x.check.checked[spec] && x.check[spec] !== undefined);
      return {
        checked: seen.filter((x) => x.check.checked[spec]).length,
        invalid: bad.length,
        operations: [...new Set(bad.map((x) => x.check.operationId))].length,
        problems: bad.map((x) => `${x.check.operationId} ${x.method} ${x.path} -> ${x.status}: ${x.check[spec]}`),
      };
    };
    const pinned = report('pinned');
    const latest = report('latest');
    const served = new Set(seen.map((x) => x.check.operationId));
    console.log(
      `contract sweep (${FULL ? 'every operation' : `${ops.length} of ${all.length} operations`}; ${sampleNote('contract sweep')}): ${seen.length} 2xx bodies from ${served.size} operations; invalid under 0.146.0: ${pinned.invalid} of ${pinned.checked} (${pinned.operations} operations), under 0.202.0: ${latest.invalid} of ${latest.checked} (${latest.operations} operations)`,
    );
    expect(failed, failed.join('\n') + `\n${sampleNote('contract sweep')}`).toEqual([]);
    expect(pinned.problems, pinned.problems.join('\n') + `\n${sampleNote('contract sweep')}`).toEqual([]);
    expect(latest.problems, latest.problems.join('\n') + `\n${sampleNote('contract sweep')}`).toEqual([]);
  }, 120_000);
});
