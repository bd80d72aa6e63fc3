import type { Schema } from '../contract/types.js';
import { apiUrl, type Context } from '../kernel/context.js';
import type { MemberRecord } from '../organizations/model.js';
import type { ReadTx } from '../store/port.js';
import { presentTeam } from '../teams/present.js';
import { isActiveProvider, type SamlProviderRecord } from './model.js';
import { Teams } from '../teams/tables.js';

// The service-provider side of SAML, derived from the server's base URL: what an admin enters in
// the identity provider (ACS URL, SP entity ID) and where sign-in starts.
export function serviceUrls(ctx: Context, p: SamlProviderRecord) {
  const base = `${ctx.baseUrl}/sso/saml/${p.id}`;
  return { acsURL: `${base}/acs`, startURL: `${base}/start`, entityID: base };
}

/**
 * The contract's OrganizationSAMLProvider. It requires `ssoURL`, `entityID` and `certificate`;
 * a pending provider that has not got them yet shows empty strings, and `about:blank` (RFC 6694,
 * the URI that names nothing) for the SSO URL.
 */
export function presentSamlProvider(ctx: Context, tx: ReadTx, caller: MemberRecord, p: SamlProviderRecord): Schema<'OrganizationSAMLProvider'> {
  const team = p.defaultTeam ? tx.get(Teams, p.defaultTeam) : undefined;
  return {
    object: 'saml-provider' as const,
    id: p.id,
    label: p.label,
    ssoURL: p.ssoURL ?? 'about:blank',
    entityID: p.entityID ?? '',
    certificate: p.certificate ?? '',
    ...(team ? { defaultTeam: presentTeam(tx, caller, team) } : {}),
    defaultRole: p.defaultRole,
    createdAt: p.createdAt,
    status: isActiveProvider(p) ? ('active' as const) : ('pending' as const),
    service: serviceUrls(ctx, p),
    urls: { location: apiUrl(ctx, `/orgs/${p.organization}/saml/${p.id}`) },
  };
}
