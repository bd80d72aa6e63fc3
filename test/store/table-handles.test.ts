import { readdirSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Spaces } from '../../src/spaces/tables.js';
import { Teams } from '../../src/teams/tables.js';
import type { ReadTx, WriteTx } from '../../src/store/port.js';
import { TABLES } from '../../src/store/tables.js';

// Tables are typed handles declared by their owning area (src/store/port.ts `Table`): the
// compiler refuses a table name, a row of another type and a field that is not indexed. The
// expected errors below are the test: `npm run typecheck` fails when one is not an error.

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

// Never called: only type-checked.
function _typeChecks(tx: WriteTx, r: ReadTx) {
  // @ts-expect-error a table name is not a handle
  r.get('spaces', 'x');
  // @ts-expect-error a row of another table
  tx.put(Spaces, { id: 'x', title: 'no organization' });
  // @ts-expect-error `title` is not an indexed field of spaces
  r.find(Spaces, 'title', 'x');
  // @ts-expect-error the handle carries the row type: no type argument to assert another
  r.get<{ id: string; other: number }>(Spaces, 'x');
  const team = r.get(Teams, 'x');
  return team?.organization satisfies string | undefined;
}

describe('table handles', () => {
  it('every area handle names a table of src/store/tables.ts', async () => {
    const names = new Set(TABLES.map((t) => t.name));
    const modules = readdirSync(SRC, { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name !== 'store' && existsSync(`${SRC}${d.name}/tables.ts`))
      .map((d) => d.name);
    expect(modules.length).toBeGreaterThan(10);
    for (const area of modules) {
      const handles = Object.entries(await import(`../../src/${area}/tables.ts`));
      expect(handles.length, area).toBeGreaterThan(0);
      for (const [name, handle] of handles) expect(names, `${area}: ${name}`).toContain(handle);
    }
  });
});
