import type { Terms } from './model.js';

// Term vectors and their similarity (cosine), shared by processing and by reads (cluster labels).
// No dependencies, so that reading clusters loads nothing heavy.

export function norm(v: Terms): number {
  let s = 0;
  for (const x of Object.values(v)) s += x * x;
  return Math.sqrt(s);
}

/** Cosine similarity, 0 when either vector is empty. */
export function cosine(a: Terms, b: Terms): number {
  const na = norm(a);
  const nb = norm(b);
  if (!na || !nb) return 0;
  const [small, large] = Object.keys(a).length <= Object.keys(b).length ? [a, b] : [b, a];
  let dot = 0;
  for (const [k, x] of Object.entries(small)) dot += x * (large[k] ?? 0);
  return dot / (na * nb);
}

/** a + sign * b, dropping terms that fall to (about) zero. */
export function addTerms(a: Terms, b: Terms, sign: 1 | -1 = 1): Terms {
  const out: Terms = { ...a };
  for (const [k, x] of Object.entries(b)) {
    const y = (out[k] ?? 0) + sign * x;
    if (Math.abs(y) < 1e-9) delete out[k];
    else out[k] = y;
  }
  return out;
}

/** The `n` heaviest terms, ties by term, so the choice is deterministic. */
export function topTerms(v: Terms, n: number): string[] {
  return Object.entries(v)
    .sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))
    .slice(0, n)
    .map(([k]) => k);
}

export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  const at = head.lastIndexOf(' ');
  return (at > max / 2 ? head.slice(0, at) : head) + '…';
}
