import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationSpec } from '../../src/contract/spec.js';
import { responseProblem } from '../../src/contract/validate.js';
import { latestSpec } from '../helpers/contract.js';
import { startServer, type TestServer } from '../helpers/server.js';

// The tests' response check compiles each spec's components once and shares them between
// operations (src/contract/validate.ts): a problem inside a shared component must still be found,
// under each spec, whichever operation compiled the component first.
describe('responseProblem with shared components', () => {
  let s: TestServer;
  let real: Record<string, unknown>;
  beforeAll(async () => {
    s = await startServer();
    const org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
    real = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Checked' } })).body;
  });
  afterAll(() => s.stop());

  it('finds a wrong nested value in a component both operations share, under both specs', () => {
    for (const spec of [operationSpec, latestSpec]) {
      const get = spec('getSpaceById')!;
      const list = spec('listSpacesInOrganizationById')!;
      expect(responseProblem(get, 200, real), get.source).toBeUndefined();
      // Compile the list first: its Space component is the one getSpaceById then reuses.
      expect(responseProblem(list, 200, { items: [{ ...real, visibility: 'nope' }] }), get.source).toMatch(/^response\.items\.0\.visibility: /);
      expect(responseProblem(get, 200, { ...real, visibility: 'nope' }), get.source).toMatch(/^response\.visibility: /);
      expect(responseProblem(get, 200, { ...real, id: 42 }), get.source).toMatch(/^response\.id: must be string/);
    }
  });

  it('refuses a status the operation does not answer', () => {
    expect(responseProblem(operationSpec('deleteSpaceById'), 418, {})).toMatch(/status 418 is not a response of deleteSpaceById/);
  });
});
