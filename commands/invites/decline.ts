import * as Args from '@oclif/core/args';
import { DocsCommand } from '../_lib/base.js';
import { INVITATIONS_PATH, type InvitationView } from '../_lib/invitations.js';

export default class Decline extends DocsCommand {
  static summary = 'Decline a pending invitation of yours: it is dropped, you join nothing';
  static examples = ['<%= config.bin %> invites decline Xk2p9QwErTy7uIoPaSdF'];
  static args = { id: Args.string({ description: 'The pending invitation ID (docs invites pending)', required: true }) };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(Decline);
    const t = await this.transport(flags);
    const declined = (await t.docs('POST', `${INVITATIONS_PATH}/${encodeURIComponent(args.id)}/decline`)).body as Partial<InvitationView>;
    if (!this.jsonEnabled())
      this.log(`Declined invitation ${args.id}${declined.organization ? ` to ${declined.organization.title} (${declined.organization.id})` : ''}.`);
    return declined;
  }
}
