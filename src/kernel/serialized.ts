// Responses serialized once. The most frequent reads (an organization, a space) answer the same
// bytes again and again; their presenters remember the JSON of what they presented, keyed by the
// row object (rows are immutable: any change puts a new row, so an entry can never be stale)
// and by every other input of the presenter. The HTTP adapter writes those bytes instead of
// serializing the body again. The body itself is built fresh every time (callers own it), or,
// where building it costs (an organization search's hundreds of hits), parsed from the bytes
// only when someone reads it (`presentedBefore`): the HTTP adapter never does.

const bytesOf = new WeakMap<object, Buffer>();

/** The JSON bytes registered for this exact body object, if any. */
export function serializedBytes(body: unknown): Buffer | undefined {
  return typeof body === 'object' && body !== null ? bytesOf.get(body) : undefined;
}

/**
 * Presents `row` with `present()` and registers the body's JSON bytes, reusing the bytes of the
 * last presentation of the same row object with the same `key` (the presenter's other inputs).
 */
export function presentOnce<R extends object, B extends object>(memo: WeakMap<R, Presented>, row: R, key: string, present: () => B): B {
  const body = present();
  let hit = memo.get(row);
  if (!hit || hit.key !== key) memo.set(row, (hit = { key, bytes: Buffer.from(JSON.stringify(body)), fields: Object.keys(body) }));
  bytesOf.set(body, hit.bytes);
  return body;
}

/** What `presentOnce` remembers of a row's last presentation. */
export interface Presented {
  key: string;
  bytes: Buffer;
  /** The body's own fields, in order. */
  fields: string[];
}

/**
 * The body `presentOnce` presented last from `row` with `key`, without presenting it again
 * (undefined: none, or with another key): a fresh object of the same fields, registered with the
 * same bytes, whose fields are parsed from those bytes on first read (the HTTP adapter writes
 * the bytes and reads none). A caller may read, change or keep it as one `present()` made.
 */
export function presentedBefore<R extends object>(memo: WeakMap<R, Presented>, row: R, key: string): object | undefined {
  const hit = memo.get(row);
  if (!hit || hit.key !== key) return undefined;
  const { bytes } = hit;
  let parsed: Record<string, unknown> | undefined;
  const body = {};
  for (const field of hit.fields)
    Object.defineProperty(body, field, {
      enumerable: true,
      configurable: true,
      get: () => (parsed ??= JSON.parse(bytes.toString('utf8')) as Record<string, unknown>)[field],
      set: (value: unknown) => Object.defineProperty(body, field, { value, enumerable: true, configurable: true, writable: true }),
    });
  bytesOf.set(body, bytes);
  return body;
}
