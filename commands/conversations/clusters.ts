import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { DocsCommand } from '../_lib/base.js';
import { spin } from '../_lib/operation-command.js';
import { renderList, renderObject } from '../_lib/render.js';
import { orgFlag, organizationOf } from '../_lib/org.js';

type Cluster = { id: string; label: string; stats: { issues: number; conversations: number }; weeklyPulse: number[]; updatedAt: string };
import { moreHint, pageFlag } from '../_lib/pages.js';

export default class ConversationsClusters extends DocsCommand {
  static operations = ['listConversationsIssuesClusters', 'getConversationsIssuesCluster'];
  static summary = 'List the clusters of issues found in conversations (with their weekly pulse), or show one';
  static description =
    'API: GET /v1/orgs/{organizationId}/conversations-clusters (listConversationsIssuesClusters); with CLUSTER, GET /v1/orgs/{organizationId}/conversations-clusters/{clusterId} (getConversationsIssuesCluster). The pulse column shows issues per week over the last 13 weeks, oldest first.';
  static examples = [
    '<%= config.bin %> conversations clusters',
    '<%= config.bin %> conversations clusters --order-by issues --order desc --limit 10',
    '<%= config.bin %> conversations clusters kP3xQ9mZ2vL8nR5tW1yA --json',
  ];
  static args = { cluster: Args.string({ description: 'Cluster id: show this one', required: false }) };
  static flags = {
    org: orgFlag(),
    'order-by': Flags.string({
      description: 'Sort key (default updatedAt)',
      options: ['updatedAt', 'issues', 'conversations', 'tasksTotal', 'tasksBacklog', 'tasksStarted'],
    }),
    order: Flags.string({ description: 'Sort direction (default desc)', options: ['asc', 'desc'] }),
    limit: Flags.integer({ description: 'How many items a page holds (1 to 1000)', min: 1, max: 1000 }),
    page: pageFlag(),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(ConversationsClusters);
    const transport = await this.transport(flags);
    const organizationId = await organizationOf(flags, transport);
    if (args.cluster) {
      const { body } = await spin(transport.remote, 'GET conversations-clusters', () =>
        transport.call('getConversationsIssuesCluster', { path: { organizationId, clusterId: args.cluster! } }),
      );
      if (!this.jsonEnabled()) this.log(renderObject(body as Record<string, unknown>));
      return body;
    }
    const query = { orderBy: flags['order-by'], order: flags.order, limit: flags.limit, page: flags.page };
    const { body } = await spin(transport.remote, 'GET conversations-clusters', () =>
      transport.call('listConversationsIssuesClusters', { path: { organizationId }, query }),
    );
    const list = body as { items: Cluster[]; next?: { page: string } };
    if (!this.jsonEnabled()) {
      const rows = list.items.map((c) => ({
        id: c.id,
        label: c.label,
        issues: c.stats.issues,
        conversations: c.stats.conversations,
        pulse: sparkline(c.weeklyPulse),
        updatedAt: c.updatedAt,
      }));
      const table = await renderList(rows);
      if (table) this.log(table);
      moreHint(list);
    }
    return body;
  }
}

/** 13 weekly counts as a one-line chart, scaled to the busiest week. */
function sparkline(values: number[]): string {
  const bars = '▁▂▃▄▅▆▇█';
  const max = Math.max(...values);
  return values.map((v) => (max === 0 || v === 0 ? ' ' : bars[Math.min(7, Math.floor((v / max) * 7))])).join('');
}
