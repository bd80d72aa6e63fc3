import { createHash } from 'node:crypto';
import type { Heading } from './markdown.js';

// Rendered page bodies, by everything that decides them: the space and its revision's tree
// (links resolve against it), the page's body hash, the page's address prefix, the link
// settings, the hour (signed file URLs change hourly) and, where pages have conditions, the
// visitor's claims (a link to a page closed to them renders broken). A write changes one of
// these (a new revision, a moved site space, new customization), so an entry never goes stale:
// it just stops being asked for. Bounded: the oldest entries leave first.

const MAX = 1000;
const bodies = new Map<string, { html: string; headings: Heading[] }>();

export const bodyKey = (parts: (string | number | boolean | undefined)[], claims?: unknown) =>
  parts.map((p) => String(p ?? '')).join('|') + (claims === undefined ? '' : `|${createHash('sha256').update(JSON.stringify(claims)).digest('base64url')}`);

export function cachedBody(key: string) {
  const hit = bodies.get(key);
  if (hit) {
    bodies.delete(key);
    bodies.set(key, hit);
  }
  return hit;
}

export function keepBody(key: string, body: { html: string; headings: Heading[] }) {
  if (bodies.size >= MAX) bodies.delete(bodies.keys().next().value!);
  bodies.set(key, body);
}

/** For tests: how many bodies were rendered (cache misses). */
export const renderStats = { rendered: 0 };

// Whole pages, by a signature of what they were drawn from. Store rows are immutable objects
// (a write puts a new one), so each row read gets a serial number once, and a signature lists
// the serials of every row a page shows (organization, site, sections, groups, site spaces,
// spaces, the space's revision) with the request's own inputs (address, theme, hour, and the
// visitor's claims where pages have conditions). A write gives new rows, so new serials: a
// cached page is never served after what it shows has changed.

const serials = new WeakMap<object, number>();
let nextSerial = 1;
export function serial(row: object): number {
  let n = serials.get(row);
  if (n === undefined) serials.set(row, (n = nextSerial++));
  return n;
}

const PAGES_MAX = 500;
const pages = new Map<string, { bytes: Buffer; csp?: string }>();

/** A drawn page and the CSP it was sent with (an API operation page's names the spec's servers). */
export function cachedPage(sig: string): { bytes: Buffer; csp?: string } | undefined {
  return pages.get(sig);
}

export function keepPage(sig: string, bytes: Buffer, csp?: string) {
  if (pages.size >= PAGES_MAX) pages.delete(pages.keys().next().value!);
  pages.set(sig, { bytes, ...(csp ? { csp } : {}) });
}

// Whole answers, by request: the address, Host and Cookie header of a visitor who brings no
// share key, token or claims, with the store's generation (src/store/port.ts: it changes on every
// commit, here or heard from another process) and the hour. A hit is sent without a store read:
// the same request against the same store state draws the same page (everything a page shows is
// in the store, or in the hour for signed file URLs). Any commit empties it; the signature cache
// above then answers the next request with one read.

const ANSWERS_MAX = 2000;
const answers = new Map<string, { bytes: Buffer; csp?: string }>();
let answersAt = '';

/** The page this request got last time, if nothing has been committed since and the hour is the same. */
export function answered(key: string, generation: number, hour: number): { bytes: Buffer; csp?: string } | undefined {
  if (answersAt !== `${generation}|${hour}`) return undefined;
  return answers.get(key);
}

export function keepAnswer(key: string, generation: number, hour: number, bytes: Buffer, csp?: string) {
  const at = `${generation}|${hour}`;
  if (answersAt !== at) {
    answers.clear();
    answersAt = at;
  }
  if (answers.size >= ANSWERS_MAX) answers.delete(answers.keys().next().value!);
  answers.set(key, { bytes, ...(csp ? { csp } : {}) });
}
