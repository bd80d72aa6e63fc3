import type { Context } from '../kernel/context.js';
import { conflict, invalid, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { MemberRole } from '../kernel/roles.js';
import type { MemberRecord, OrganizationRecord } from '../organizations/model.js';
import { requireOrgRole } from '../organizations/service.js';
import { hasActiveSamlProvider } from '../organizations/settings.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { isActiveProvider, type SamlProviderRecord } from './model.js';
import { SamlProviders } from './tables.js';
import { Teams } from '../teams/tables.js';

export interface SamlInput {
  label?: string;
  entityID?: string;
  certificate?: string;
  ssoURL?: string;
  defaultTeam?: string;
  defaultRole?: MemberRole;
}

export const providersOf = (tx: ReadTx, organization: string) =>
  tx.find(SamlProviders, 'organization', organization).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));

/** SAML configuration holds the organization's sign-in trust: admins only, to read it too. */
export const requireSamlAdmin = (caller: MemberRecord, action: string) => requireOrgRole(caller, 'admin', action);

export function requireProvider(tx: ReadTx, organization: string, id: string): SamlProviderRecord {
  const p = tx.get(SamlProviders, id);
  if (!p || p.organization !== organization) throw notFound(`SAML provider ${id} not found`);
  return p;
}

function apply(tx: ReadTx, base: SamlProviderRecord, input: SamlInput): SamlProviderRecord {
  const next = { ...base };
  if (input.label !== undefined) {
    if (!input.label.trim()) throw invalid('label: must not be blank');
    next.label = input.label.trim();
  }
  // An empty entityID or certificate clears it (the provider goes back to pending).
  for (const f of ['entityID', 'certificate'] as const) {
    if (input[f] !== undefined) {
      if (input[f]!.trim()) next[f] = input[f]!.trim();
      else delete next[f];
    }
  }
  if (input.ssoURL !== undefined) {
    if (!/^https?:\/\//i.test(input.ssoURL)) throw invalid('ssoURL: must be an http or https URL');
    next.ssoURL = input.ssoURL;
  }
  if (input.defaultTeam !== undefined) {
    if (input.defaultTeam === '') delete next.defaultTeam;
    else {
      const team = tx.get(Teams, input.defaultTeam);
      if (!team || team.organization !== base.organization) throw invalid(`defaultTeam: no team ${input.defaultTeam} in this organization`);
      next.defaultTeam = team.id;
    }
  }
  if (input.defaultRole !== undefined) next.defaultRole = input.defaultRole;
  return next;
}

export function createProvider(tx: WriteTx, ctx: Context, caller: MemberRecord, org: OrganizationRecord, input: SamlInput): SamlProviderRecord {
  requireSamlAdmin(caller, 'creating a SAML provider');
  const base: SamlProviderRecord = {
    id: newId(),
    organization: org.id,
    label: '',
    // Without a role of its own, a provider signs people up with the organization's default role.
    defaultRole: org.defaultRole,
    createdAt: ctx.clock.now().toISOString(),
  };
  return tx.put(SamlProviders, apply(tx, base, input));
}

export function updateProvider(tx: WriteTx, caller: MemberRecord, org: OrganizationRecord, id: string, input: SamlInput): SamlProviderRecord {
  requireSamlAdmin(caller, 'changing a SAML provider');
  if (Object.keys(input).length === 0) throw invalid('body: nothing to update');
  const current = requireProvider(tx, org.id, id);
  const next = apply(tx, current, input);
  if (org.sso && isActiveProvider(current) && !isActiveProvider(next) && !hasActiveSamlProvider(tx, org.id, id)) {
    throw conflict(`SAML provider ${id} is the only active one and the organization enforces SSO; turn sso off first`);
  }
  return tx.put(SamlProviders, next);
}

/** False when there was no such provider. */
export function deleteProvider(tx: WriteTx, caller: MemberRecord, org: OrganizationRecord, id: string): boolean {
  requireSamlAdmin(caller, 'deleting a SAML provider');
  const p = tx.get(SamlProviders, id);
  if (!p || p.organization !== org.id) return false;
  // Deleting the last way to sign in while SSO is enforced would lock every member out.
  if (org.sso && isActiveProvider(p) && !hasActiveSamlProvider(tx, org.id, id)) {
    throw conflict(`SAML provider ${id} is the only active one and the organization enforces SSO; turn sso off first`);
  }
  return tx.delete(SamlProviders, id);
}
