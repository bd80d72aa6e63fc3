import { describe, expect, it } from 'vitest';
import { AREAS, loadAllOperations, loadedOperation, OPERATION_IDS } from '../src/operations.js';

describe('the operations list', () => {
  it('lists each operation once, and each area exports exactly its listed operations under their ids', async () => {
    expect(new Set(OPERATION_IDS).size).toBe(OPERATION_IDS.length);
    await loadAllOperations();
    for (const id of OPERATION_IDS) expect(loadedOperation(id)?.operationId, id).toBe(id);
    for (const area of AREAS) {
      const mod = await area.load();
      const exported = Object.values(mod).filter(
        (v: any) => v && typeof v === 'object' && typeof v.operationId === 'string' && typeof v.handler === 'function',
      );
      expect(exported.map((o: any) => o.operationId).sort()).toEqual([...area.operations].sort());
    }
  });
});
