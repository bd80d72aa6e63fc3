import { DocsCommand } from '../_lib/base.js';
import { INVITATIONS_PATH, type InvitationView } from '../_lib/invitations.js';
import { renderList } from '../_lib/render.js';

export default class Pending extends DocsCommand {
  static summary = 'List your pending invitations to organizations (accept or decline each)';
  static description =
    'An admin inviting an existing user by email makes a pending invitation: it grants nothing until that user accepts it (docs invites accept ID) and can be declined (docs invites decline ID).';
  static examples = ['<%= config.bin %> invites pending', '<%= config.bin %> invites pending --json --token "$MY_TOKEN"'];

  async run(): Promise<unknown> {
    const { flags } = await this.parse(Pending);
    const t = await this.transport(flags);
    const list = (await t.docs('GET', INVITATIONS_PATH)).body as { items: InvitationView[]; count: number };
    if (!this.jsonEnabled()) {
      const rows = list.items.map((i) => ({
        id: i.id,
        organization: `${i.organization.title} (${i.organization.id})`,
        role: i.role ?? 'guest',
        'invited by': i.invitedBy?.email ?? '',
        since: i.createdAt,
      }));
      const table = await renderList(rows, ['id', 'organization', 'role', 'invited by', 'since'], 'No pending invitations.');
      if (table) this.log(table);
    }
    return list;
  }
}
