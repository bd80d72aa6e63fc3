// Single sign-on readiness, here below saml/ because the organization's own settings need it
// (`sso: true` is refused without an active provider) while saml/ builds on organizations/.

/**
 * `active` once the identity provider's side is fully known (entity ID, certificate, SSO URL):
 * only then can anyone sign in through it. Until then `pending`.
 */
export const isActiveProvider = (p: { entityID?: string; certificate?: string; ssoURL?: string }) => !!(p.entityID && p.certificate && p.ssoURL);
