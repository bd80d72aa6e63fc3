import { invalid } from './errors.js';

// Query flags of the doors outside the contract (`/mcp?read-only=1`, a site's routes): a flag
// that narrows what a caller may do must never fail open. So a boolean flag takes exactly
// `1`, `true`, `0` or `false`; anything else (`?read-only`, `?read-only=`, `?read-only=yes`),
// or the same name twice (`?read-only=0&read-only=1`), is a 400. Names are case-sensitive, and
// a name that differs from a known one only by case (`?READ-ONLY=1`) is a 400 too rather than
// an unknown parameter silently ignored: the caller meant the flag and would not get it.

const TRUE = new Set(['1', 'true']);
const FALSE = new Set(['0', 'false']);

/** Refuses a name that differs from one of `known` only by case. */
export function refuseCaseVariants(params: URLSearchParams, known: readonly string[]): void {
  const lower = new Map(known.map((k) => [k.toLowerCase(), k]));
  for (const name of new Set(params.keys())) {
    const meant = lower.get(name.toLowerCase());
    if (meant !== undefined && meant !== name) throw invalid(`${name}: unknown query parameter (names are case-sensitive: did you mean ${meant}?)`);
  }
}

/** The one value of `name`, or undefined when absent; a repeated name is a 400. */
export function singleParam(params: URLSearchParams, name: string): string | undefined {
  const all = params.getAll(name);
  if (all.length > 1) throw invalid(`${name}: given ${all.length} times in the query; give it once`);
  return all[0];
}

/** A boolean flag: undefined when absent, else exactly 1|true (true) or 0|false (false). */
export function booleanFlag(params: URLSearchParams, name: string): boolean | undefined {
  const v = singleParam(params, name);
  if (v === undefined) return undefined;
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  throw invalid(`${name}: must be 1, true, 0 or false (got ${JSON.stringify(v)})`);
}
