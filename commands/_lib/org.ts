import * as Flags from '@oclif/core/flags';
import { DocsError } from '../../src/kernel/errors.js';
import type { Transport } from '../../src/transport/types.js';

// The one way a command finds its organization: --org, else $DOCS_ORG, else the caller's only
// organization. A CI job in two organizations sets DOCS_ORG once and every command follows it.

export const ORG_ENV = 'DOCS_ORG';

/** The --org flag of every organization-scoped command. */
export const orgFlag = (description = 'Organization id (default: $DOCS_ORG, else your only organization)') => Flags.string({ description, env: ORG_ENV });

/** The organization a command acts in (see above). */
export async function organizationOf(flags: { org?: string }, transport: Transport): Promise<string> {
  return flags.org || process.env[ORG_ENV] || (await soleOrganization(transport));
}

/** The caller's only organization, for commands whose --org was left out. */
export async function soleOrganization(transport: Transport): Promise<string> {
  const list = (await transport.call('listOrganizationsForAuthenticatedUser', { query: { limit: 2 } })).body as {
    items: { id: string }[];
    count?: number;
    next?: { page?: string };
  };
  // `count` is optional in the contract: without it, the items and whether another page follows.
  const count = typeof list.count === 'number' ? list.count : list.items.length + (list.next?.page ? 1 : 0);
  if (count === 1 && list.items[0]) return list.items[0].id;
  // On a terminal, several organizations: pick one (pick.ts) rather than fail.
  const { interactive } = await import('./confirm.js');
  if (count > 1 && interactive()) {
    const { pick } = await import('./pick.js');
    return pick('organizationId', { transport, values: {}, flags: {} });
  }
  throw new DocsError(
    'invalid',
    `org: required, you belong to ${typeof list.count === 'number' || !list.next?.page ? count : `${count} or more`} organizations: pass --org ID or set DOCS_ORG (see docs orgs list)`,
  );
}
