// Human output. --json bypasses all of this and prints the API body as it is.

const scalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

function cell(v: unknown): string {
  if (v === undefined) return '';
  if (scalar(v)) return String(v);
  const s = JSON.stringify(v);
  return s.length > 60 ? s.slice(0, 57) + '...' : s;
}

/** Columns to show: the given ones, else `id` and the first few scalar fields of the items. */
export function pickColumns(items: Record<string, unknown>[], wanted?: string[]): string[] {
  if (wanted?.length) return wanted;
  const keys = new Set<string>();
  for (const item of items.slice(0, 20)) for (const [k, v] of Object.entries(item)) if (scalar(v) && k !== 'object') keys.add(k);
  const cols = [...keys];
  return cols.includes('id') ? ['id', ...cols.filter((c) => c !== 'id')].slice(0, 5) : cols.slice(0, 5);
}

export async function renderTable(items: Record<string, unknown>[], columns?: string[]): Promise<string> {
  const { default: Table } = await import('cli-table3');
  const cols = pickColumns(items, columns);
  const table = new Table({ head: cols, style: { head: [], border: [] } });
  for (const item of items) table.push(cols.map((c) => cell(c.split('.').reduce<any>((o, k) => o?.[k], item))));
  return table.toString();
}

/** Key/value view of one object: scalars as they are, nested values as compact JSON. */
export function renderObject(obj: Record<string, unknown>): string {
  const entries = Object.entries(obj).filter(([k]) => k !== 'object');
  const width = Math.max(0, ...entries.map(([k]) => k.length));
  return entries.map(([k, v]) => `${k.padEnd(width)}  ${scalar(v) ? String(v) : JSON.stringify(v)}`).join('\n');
}
