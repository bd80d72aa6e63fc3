import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Random, URL-safe, fixed-length id (20 chars of base62 ≈ 119 bits). Never sequential. */
export function newId(length = 20): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  // Rejection sampling keeps the distribution uniform over the 62 symbols.
  for (let i = 0; i < bytes.length && out.length < length; i++) {
    const b = bytes[i]!;
    if (b < 248) out += ALPHABET[b % 62];
  }
  return out.length === length ? out : out + newId(length - out.length);
}

/** A secret token: prefix + 40 base62 chars. Only its hash is stored. */
export function newToken(): string {
  return 'gb_api_' + newId(40);
}
