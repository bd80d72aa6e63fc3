import * as Flags from '@oclif/core/flags';
import { DocsError } from '../../src/kernel/errors.js';
import type { Transport } from '../../src/transport/types.js';

// The one way a command finds its organization: --org, else $DOCS_ORG, else the caller's only
// organization. A CI job in two organizations sets DOCS_ORG once and every command follows it.

export const ORG_ENV = 'DOCS_ORG';

/** The --org flag of every organization-scoped command. */
export const orgFlag = (description = 'Organization id (default: $DOCS_ORG, else your only organization)') =>
  Flags.string({ description, env: ORG_ENV });

/** The organization a command acts in (see above). */
export async function organizationOf(flags: { org?: string }, transport: Transport): Promise<string> {
  return flags.org || process.env[ORG_ENV] || (await soleOrganization(transport));
}

/** The caller's only organization, for commands whose --org was left out. */
export async function soleOrganization(transport: Transport): Promise<string> {
  const list = (await transport.call('listOrganizationsForAuthenticatedUser', { query: { limit: 2 } })).body as { items: { id: string }[]; count: number };
  if (list.count === 1) return list.items[0]!.id;
  // On a terminal, several organizations: pick one (pick.ts) rather than fail.
  const { interactive } = await import('./confirm.js');
  if (list.count > 1 && interactive()) {
    const { pick } = await import('./pick.js');
    return pick('organizationId', { transport, values: {}, flags: {} });
  }
  throw new DocsError('invalid', `org: required, you belong to ${list.count} organizations: pass --org ID or set DOCS_ORG (see docs orgs list)`);
}
