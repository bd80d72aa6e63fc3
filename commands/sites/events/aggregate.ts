import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'aggregateSiteEvents',
  description:
    "Aggregate a site's insights events (select, where, groupBy, order, range, limit, as the API takes them); `docs sites insights` draws the usual view",
  examples: [
    `<%= config.bin %> sites events aggregate szK9Qp2mTtR4bLx0aVn1 --range last7Days --group-by '[{"column":"eventType"}]'`,
    `<%= config.bin %> sites events aggregate szK9Qp2mTtR4bLx0aVn1 --input query.json --json`,
  ],
  orgFlag: true,
  summary: false,
  flags: {
    // A preset by name, or {"from","to"} as JSON.
    range: Flags.string({
      description: 'Time range: lastYear, last3Months, last30Days, last7Days, last24Hours, or {"from":…,"to":…} (JSON)',
      parse: async (v) => {
        if (!v.trimStart().startsWith('{')) return v;
        try {
          return JSON.parse(v);
        } catch {
          throw new Error('range must be a preset name or JSON');
        }
      },
    }),
  },
});
