import type { Caller } from './kernel/context.js';
import type { WriteTx } from './store/port.js';
import { removeSiteInstallations } from './git/installations.js';
import { removeSiteContextConnections } from './site-context/connections.js';
import { deleteSite } from './sites/service.js';
import { removeSiteStyleguideRuns } from './styleguides/service.js';

// Deleting a docs site, with what other areas keep about it: above the areas (ARCHITECTURE.md),
// like src/space-purge.ts, as the rows reach into git/, styleguides/ and site-context/, which come after sites/.
// All in the deleting write: a site is never half deleted, and nothing of it answers afterwards.

/** Deletes a site (src/sites/service.ts: its structure, links, insights) and the rows other areas keep for it. */
export function deleteSiteAndItsRows(tx: WriteTx, caller: Caller, organizationId: string, siteId: string): boolean {
  if (!deleteSite(tx, caller, organizationId, siteId)) return false;
  removeSiteInstallations(tx, siteId);
  removeSiteStyleguideRuns(tx, siteId);
  removeSiteContextConnections(tx, siteId);
  return true;
}
