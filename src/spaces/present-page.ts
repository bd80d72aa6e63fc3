import type { Context } from '../kernel/context.js';
import { paginate, type PageQuery } from '../kernel/pagination.js';
import type { MemberRole } from '../kernel/roles.js';
import type { ReadTx } from '../store/port.js';
import { prefetchSpaces, spaceRow, type SpaceEntry } from '../tree/order.js';
import { spaceCounts } from './counts.js';
import { presentSpace } from './present.js';

/**
 * One page of a list of spaces (an organization's, a collection's), as the API shows it: the
 * entries of the organization's summary become whole rows, the page's asked for in one round
 * (a read runs again after each round of shard loads: one row at a time made 10,000 spaces ~1 s).
 */
export function presentSpacesPage(ctx: Context, tx: ReadTx, list: readonly { row: SpaceEntry; level: MemberRole }[], query: PageQuery) {
  return paginate(
    list,
    query,
    (x) => presentSpace(ctx, spaceRow(tx, x.row), x.level, spaceCounts(tx, x.row.id)),
    (page) => prefetchSpaces(tx, page),
  );
}
