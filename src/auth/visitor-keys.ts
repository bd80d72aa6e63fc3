import { createPrivateKey, generateKeyPairSync, type JsonWebKey } from 'node:crypto';
import type { Context } from '../kernel/context.js';
import { newId } from '../kernel/ids.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { table } from '../store/port.js';

/** The signing key's row in the `meta` table. */
const MetaVisitorKey = table<VisitorKeyMeta>('meta');

// The key that signs visitor claims (the `gitbookVisitorClaims` JWT of the ping operation).
// One ES256 key pair per data directory, made on first use and kept in the root shard, so tokens
// stay verifiable across restarts. Its public half is served as a JWKS at
// GET /.well-known/jwks.json, which is how a site or a script checks a token.

export const VISITOR_KEY_ALG = 'ES256';

/**
 * The `aud` of a visitor token: the organization (`org:<id>`) or the one site (`site:<id>`) it
 * was issued for. A token opens, and its claims count on, only the sites of its audience.
 */
export const visitorAudience = (organizationId: string) => `org:${organizationId}`;
export const siteAudience = (siteId: string) => `site:${siteId}`;

interface VisitorKeyMeta {
  id: 'visitor-signing-key';
  kid: string;
  privateJwk: JsonWebKey;
  publicJwk: JsonWebKey;
  createdAt: string;
}

const KEY_ROW = 'visitor-signing-key';

/** The signing key, made and stored on first use (inside a write, so two callers share one key). */
export function ensureVisitorKey(tx: WriteTx, ctx: Context): VisitorKeyMeta {
  const existing = tx.get(MetaVisitorKey, KEY_ROW);
  if (existing) return existing;
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return tx.put(MetaVisitorKey, {
    id: KEY_ROW,
    kid: newId(16),
    privateJwk: privateKey.export({ format: 'jwk' }),
    publicJwk: publicKey.export({ format: 'jwk' }),
    createdAt: ctx.clock.now().toISOString(),
  });
}

export const readVisitorKey = (tx: ReadTx) => tx.get(MetaVisitorKey, KEY_ROW);

/** The private key as a KeyObject jose can sign with. */
export function signingKey(meta: VisitorKeyMeta) {
  return createPrivateKey({ key: meta.privateJwk, format: 'jwk' });
}

/** The public JSON Web Key Set (RFC 7517) verifiers fetch. */
export async function visitorJwks(ctx: Context) {
  const meta = (await ctx.store.read(readVisitorKey)) ?? (await ctx.store.write((tx) => ensureVisitorKey(tx, ctx)));
  return { keys: [{ ...meta.publicJwk, kid: meta.kid, alg: VISITOR_KEY_ALG, use: 'sig' }] };
}
