import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, vi } from 'vitest';
import { packageRoot } from '../../src/kernel/root.js';

// Issue 28 item 1: the first request of an operation reads the operation's contract. Its file is
// ~95% components (the schemas it refers to, repeated in every operation's file); a request of an
// operation without a body reads its head (ops-head/) alone, the components when asked for.

const whole = (id: string) => readFileSync(join(packageRoot(), 'generated', 'contract', 'ops', `${id}.json`), 'utf8');

test('a request without a body reads the operation head only; the components are the same when asked for', async () => {
  vi.resetModules(); // a module graph of its own: nothing of this worker's other files cached
  const { operationSpec, specReads } = await import('../../src/contract/spec.js');
  const { validateInput } = await import('../../src/contract/validate.js');
  const op = operationSpec('listSpacesInOrganizationById');
  const input = validateInput(op, { path: { organizationId: 'o1' }, query: { limit: '5' } });
  expect(input.query).toEqual({ limit: 5 });
  expect(specReads).toEqual({ whole: 0, heads: 1, components: 0 });
  // The same operation as its whole file, key for key, once its components are read.
  expect(JSON.stringify(op)).toBe(whole('listSpacesInOrganizationById'));
  expect(specReads.components).toBe(1);
  expect(operationSpec('listSpacesInOrganizationById')).toBe(op);
  expect(specReads.heads).toBe(1);
});

test('a body whose schema is a reference reads the components for its known fields', async () => {
  vi.resetModules();
  const { operationSpec, specReads } = await import('../../src/contract/spec.js');
  const { validateInput } = await import('../../src/contract/validate.js');
  const op = operationSpec('askInOrganization'); // body: {"$ref": "#/components/schemas/SearchAIQuery"}
  expect(() => validateInput(op, { path: { organizationId: 'o1' }, body: { query: 'q', nope: 1 } })).toThrow(/body\.nope: is not an accepted field/);
  expect(specReads.components).toBe(1);
  expect(op.components).toEqual(JSON.parse(whole('askInOrganization')).components);
});
