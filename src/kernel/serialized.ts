// Responses serialized once. The most frequent reads (an organization, a space) answer the same
// bytes again and again; their presenters remember the JSON of what they presented, keyed by the
// row object (rows are immutable: any change puts a new row, so an entry can never be stale)
// and by every other input of the presenter. The HTTP adapter writes those bytes instead of
// serializing the body again. The body itself is built fresh every time (callers own it).

const bytesOf = new WeakMap<object, Buffer>();

/** The JSON bytes registered for this exact body object, if any. */
export function serializedBytes(body: unknown): Buffer | undefined {
  return typeof body === 'object' && body !== null ? bytesOf.get(body) : undefined;
}

/**
 * Presents `row` with `present()` and registers the body's JSON bytes, reusing the bytes of the
 * last presentation of the same row object with the same `key` (the presenter's other inputs).
 */
export function presentOnce<R extends object, B extends object>(memo: WeakMap<R, { key: string; bytes: Buffer }>, row: R, key: string, present: () => B): B {
  const body = present();
  let hit = memo.get(row);
  if (!hit || hit.key !== key) memo.set(row, (hit = { key, bytes: Buffer.from(JSON.stringify(body)) }));
  bytesOf.set(body, hit.bytes);
  return body;
}
