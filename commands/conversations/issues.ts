import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { DocsCommand } from '../_lib/base.js';
import { spin } from '../_lib/operation-command.js';
import { renderList, renderObject } from '../_lib/render.js';
import { orgFlag, organizationOf } from '../_lib/org.js';
import { moreHint, pageFlag } from '../_lib/pages.js';

export default class ConversationsIssues extends DocsCommand {
  static operations = ['listConversationsIssues', 'getConversationIssueById'];
  static summary = 'List the issues found in conversations (by cluster, by conversation), or show one';
  static description =
    'API: GET /v1/orgs/{organizationId}/conversations-issues (listConversationsIssues); with ISSUE, GET /v1/orgs/{organizationId}/conversations-issues/{issueId} (getConversationIssueById).';
  static examples = [
    '<%= config.bin %> conversations issues',
    '<%= config.bin %> conversations issues --cluster kP3xQ9mZ2vL8nR5tW1yA',
    '<%= config.bin %> conversations issues --conversation Q2mVt8cRk1LpZx0aB3dE --json',
    '<%= config.bin %> conversations issues Hs7Yb2Kd9QwE4rT6uI1o',
  ];
  static args = { issue: Args.string({ description: 'Issue id: show this one', required: false }) };
  static flags = {
    org: orgFlag(),
    cluster: Flags.string({ description: 'Only the issues of this cluster' }),
    conversation: Flags.string({ description: 'Only the issues of this conversation' }),
    limit: Flags.integer({ description: 'How many items a page holds (1 to 1000)', min: 1, max: 1000 }),
    page: pageFlag(),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(ConversationsIssues);
    const transport = await this.transport(flags);
    const organizationId = await organizationOf(flags, transport);
    if (args.issue) {
      const { body } = await spin(transport.remote, 'GET conversations-issues', () =>
        transport.call('getConversationIssueById', { path: { organizationId, issueId: args.issue! } }),
      );
      if (!this.jsonEnabled()) this.log(renderObject(body as Record<string, unknown>));
      return body;
    }
    const query = { cluster: flags.cluster, conversation: flags.conversation, limit: flags.limit, page: flags.page };
    const { body } = await spin(transport.remote, 'GET conversations-issues', () =>
      transport.call('listConversationsIssues', { path: { organizationId }, query }),
    );
    const list = body as { items: Record<string, unknown>[]; next?: { page: string } };
    if (!this.jsonEnabled()) {
      const rows = list.items.map((i: any) => ({
        id: i.issue?.id,
        title: i.issue?.title,
        cluster: i.issue?.cluster,
        conversation: i.conversation?.id,
        createdAt: i.issue?.createdAt,
      }));
      const table = await renderList(rows, ['id', 'title', 'cluster', 'conversation', 'createdAt']);
      if (table) this.log(table);
      moreHint(list);
    }
    return body;
  }
}
