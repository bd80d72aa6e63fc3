import { conflict, invalid } from '../kernel/errors.js';
import type { MemberRole } from '../kernel/roles.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import type { MemberRecord, MergeRules, OrganizationRecord } from './model.js';
import { findMember, requireOrgRole } from './service.js';
import { isActiveProvider } from './sso.js';
import { Organizations } from './tables.js';
import { SamlProviders } from '../saml/tables.js';
import { Sites } from '../sites/tables.js';

export interface OrganizationPatch {
  title?: string;
  emailDomains?: string[];
  hostname?: string;
  defaultRole?: MemberRole;
  defaultContent?: { type: 'site'; site: string } | null;
  logo?: string | null;
  sso?: boolean;
  ai?: boolean;
  inviteLinks?: boolean;
  mergeRules?: MergeRules;
}

// The subdomain rule of API.md: lowercase letters, digits and hyphens, starting and ending with a
// letter or digit. The schema gives only the length (3 to 32).
const HOSTNAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
// A DNS name: labels of letters, digits and hyphens, at least one dot, no leading/trailing hyphen.
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/** Allowed email domains: DNS names, lowercased, duplicates folded; 400 naming the first bad one. */
export function emailDomains(list: string[]): string[] {
  const out = list.map((d, i) => {
    const domain = d.trim().toLowerCase();
    if (!DOMAIN.test(domain)) throw invalid(`emailDomains[${i}]: ${JSON.stringify(d)} is not a domain name`);
    return domain;
  });
  return [...new Set(out)];
}

/** Applies a PATCH of the organization: the rules the contract's schema cannot express, then one put. */
export function updateOrganization(tx: WriteTx, org: OrganizationRecord, caller: MemberRecord, patch: OrganizationPatch): OrganizationRecord {
  requireOrgRole(caller, 'admin', 'changing the organization');
  if (Object.keys(patch).length === 0) throw invalid('body: nothing to update');
  const next: OrganizationRecord = { ...org };
  if (patch.title !== undefined) {
    const title = patch.title.trim();
    if (title.length < 2) throw invalid('title: must be 2 to 255 characters');
    next.title = title;
  }
  if (patch.hostname !== undefined) {
    if (!HOSTNAME.test(patch.hostname)) throw invalid('hostname: must be lowercase letters, digits and hyphens, starting and ending with a letter or digit');
    const taken = tx.find(Organizations, 'hostname', patch.hostname).find((o) => o.id !== org.id);
    if (taken) throw conflict(`hostname: ${patch.hostname} is already used by another organization`);
    next.hostname = patch.hostname;
  }
  if (patch.emailDomains !== undefined) next.emailDomains = emailDomains(patch.emailDomains);
  if (patch.defaultRole !== undefined) next.defaultRole = patch.defaultRole;
  if (patch.defaultContent !== undefined) {
    if (patch.defaultContent === null) delete next.defaultContent;
    else {
      // Default content is a docs site of this organization (src/sites); deleting that site clears it.
      const site = tx.get(Sites, patch.defaultContent.site);
      if (!site || site.organization !== org.id)
        throw invalid(`defaultContent: invalid default content: no site ${patch.defaultContent.site} in this organization`);
      next.defaultContent = { type: 'site', site: site.id };
    }
  }
  if (patch.logo !== undefined) {
    if (patch.logo === null) delete next.logo;
    else next.logo = patch.logo;
  }
  if (patch.ai !== undefined) next.ai = patch.ai;
  if (patch.inviteLinks !== undefined) next.inviteLinks = patch.inviteLinks;
  if (patch.mergeRules !== undefined) {
    if (patch.mergeRules.type === 'rules') {
      patch.mergeRules.rules.forEach((rule, i) =>
        rule.users?.forEach((u, j) => {
          if (!findMember(tx, org.id, u)) throw invalid(`mergeRules.rules[${i}].users[${j}]: ${u} is not a member of this organization`);
        }),
      );
    }
    next.mergeRules = patch.mergeRules;
  }
  if (patch.sso !== undefined) {
    // Enforcing SSO with no way to sign in through it would lock every member out.
    if (patch.sso && !hasActiveSamlProvider(tx, org.id)) {
      throw invalid('sso: needs an active SAML provider (one with entityID, certificate and ssoURL set)');
    }
    next.sso = patch.sso;
  }
  return tx.put(Organizations, next);
}

export function hasActiveSamlProvider(tx: ReadTx, organization: string, except?: string): boolean {
  return tx.find(SamlProviders, 'organization', organization).some((p) => p.id !== except && isActiveProvider(p));
}
