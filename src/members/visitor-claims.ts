import { signingKey, visitorAudience, VISITOR_KEY_ALG, type ensureVisitorKey } from '../auth/visitor-keys.js';
import type { Context } from '../kernel/context.js';
import type { MemberRecord } from '../organizations/model.js';
import type { UserRecord } from '../users/model.js';

/** How long a visitor-claims token is valid. Clients ping regularly, so an hour is plenty. */
export const VISITOR_CLAIMS_TTL_SECONDS = 3600;

/**
 * The JWT of the ping operation: who the member is in this organization, signed with the data
 * directory's ES256 key (verifiable with GET /.well-known/jwks.json). `iss` is the server's base URL.
 * `aud` is the organization it was issued for: one key signs every organization's tokens, so
 * without it a member of one organization would open another's visitor-auth sites
 * (src/urls/site/visitor.ts checks it).
 */
export async function signVisitorClaims(ctx: Context, key: ReturnType<typeof ensureVisitorKey>, user: UserRecord, member: MemberRecord): Promise<string> {
  const { SignJWT } = await import('jose'); // loaded only when a token is signed
  const now = Math.floor(ctx.clock.now().getTime() / 1000);
  return new SignJWT({ organization: member.organization, role: member.role, email: user.email, name: user.displayName })
    .setProtectedHeader({ alg: VISITOR_KEY_ALG, kid: key.kid, typ: 'JWT' })
    .setIssuer(ctx.baseUrl)
    .setSubject(user.id)
    .setAudience(visitorAudience(member.organization))
    .setIssuedAt(now)
    .setExpirationTime(now + VISITOR_CLAIMS_TTL_SECONDS)
    .sign(signingKey(key));
}
