import type { ReadTx, Row, Store, Table, WriteTx } from './port.js';

// A store whose writes go to memory, over a real store read as it is: what a dry run runs an
// operation on. The operation's own code runs unchanged (the same checks, the same conflicts),
// it sees its own writes, and nothing reaches the real store. Each write function may be run
// again by the real store (a shard loaded on demand): its writes are kept only once it returns.

type Layer = Map<string, Map<string, Row | null>>;

function overlayTx(tx: ReadTx, base: Layer, mine: Layer | undefined): WriteTx {
  const look = (table: string, id: string): Row | null | undefined => mine?.get(table)?.get(id) ?? base.get(table)?.get(id);
  const changed = (table: string) => [...(base.get(table)?.entries() ?? []), ...(mine?.get(table)?.entries() ?? [])];
  const merge = <T extends Row>(table: string, rows: T[], match: (r: Row) => boolean): T[] => {
    const out = new Map<string, T>(rows.map((r) => [r.id, r]));
    for (const [id, r] of changed(table)) {
      if (r === null || !match(r)) out.delete(id);
      else out.set(id, r as T);
    }
    return [...out.values()];
  };
  const set = (table: string, id: string, row: Row | null) => {
    if (!mine) throw new Error('a dry-run read cannot write');
    if (!mine.has(table)) mine.set(table, new Map());
    mine.get(table)!.set(id, row);
  };
  return {
    get: <T extends Row>(table: Table<T>, id: string) => {
      const r = look(table, id);
      return (r === null ? undefined : (r ?? tx.get(table, id))) as T | undefined;
    },
    find: <T extends Row, K extends string>(table: Table<T, K>, field: K, value: string) =>
      merge(table, tx.find(table, field, value), (r) => {
        const v = (r as any)[field];
        return Array.isArray(v) ? v.includes(value) : v === value;
      }),
    all: <T extends Row>(table: Table<T>) => merge(table, tx.all(table), () => true),
    put: <T extends Row>(table: Table<T>, row: T) => {
      const frozen = Object.freeze({ ...row });
      set(table, row.id, frozen);
      return frozen;
    },
    delete: (table: Table<any>, id: string) => {
      const existed = look(table, id) ? true : look(table, id) === null ? false : tx.get(table, id) !== undefined;
      set(table, id, null);
      return existed;
    },
  };
}

export function overlayStore(real: Store): Store {
  const base: Layer = new Map();
  return {
    read: (fn) => real.read((tx) => fn(overlayTx(tx, base, undefined))),
    write: async (fn) => {
      let mine: Layer = new Map();
      const out = await real.read((tx) => {
        mine = new Map(); // this attempt's writes only
        return fn(overlayTx(tx, base, mine));
      });
      for (const [table, rows] of mine) {
        if (!base.has(table)) base.set(table, new Map());
        for (const [id, row] of rows) base.get(table)!.set(id, row);
      }
      return out;
    },
    close: async () => {},
  };
}
