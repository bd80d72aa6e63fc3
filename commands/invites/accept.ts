import * as Args from '@oclif/core/args';
import { DocsCommand } from '../_lib/base.js';
import { INVITATIONS_PATH, type InvitationView } from '../_lib/invitations.js';

// Two kinds of invites are accepted here: a pending invitation of yours (one id, from docs
// invites pending) and an invite link of an organization (its id and the link's id).
export default class Accept extends DocsCommand {
  static operations = ['joinOrganizationWithInvite'];
  static summary = 'Accept a pending invitation of yours, or join an organization with an invite link';
  static examples = [
    '<%= config.bin %> invites accept Xk2p9QwErTy7uIoPaSdF              # a pending invitation (docs invites pending)',
    '<%= config.bin %> invites accept r55bjk0VeuQGpJpb7mcG I9nV1t3L1nK5aB7cD2eF   # an invite link: organization, link',
  ];
  static args = {
    id: Args.string({ description: 'A pending invitation ID (docs invites pending), or the organization ID of an invite link', required: true }),
    inviteId: Args.string({ description: 'The invite link ID, when the first argument is its organization' }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(Accept);
    const t = await this.transport(flags);
    if (args.inviteId !== undefined) {
      await t.call('joinOrganizationWithInvite', { path: { organizationId: args.id, inviteId: args.inviteId } });
      if (!this.jsonEnabled()) this.log('Joined.');
      return {};
    }
    const accepted = (await t.docs('POST', `${INVITATIONS_PATH}/${encodeURIComponent(args.id)}/accept`)).body as InvitationView;
    if (!this.jsonEnabled()) this.log(`Joined organization ${accepted.organization.title} (${accepted.organization.id}) as ${accepted.role ?? 'guest'}.`);
    return accepted;
  }
}
