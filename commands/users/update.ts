import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { DocsCommand } from '../_lib/base.js';
import { DocsError } from '../../src/kernel/errors.js';

export default class Update extends DocsCommand {
  static summary = "Mark a user's email verified, or designate an instance owner (instance owners only)";
  static description = 'A verified email lets its user join organizations by email domain (docs orgs join). An instance owner creates and revokes anyone\'s tokens, lists users and changes these marks. The bootstrap owner keeps both.';
  static examples = [
    '<%= config.bin %> users update ann@acme.com --email-verified',
    '<%= config.bin %> users update bob@acme.com --instance-owner',
    '<%= config.bin %> users update bob@acme.com --no-instance-owner --no-email-verified',
  ];
  static args = { user: Args.string({ description: 'A user ID or email address', required: true }) };
  static flags = {
    'email-verified': Flags.boolean({ description: 'Vouch for the email address (--no-email-verified withdraws it)', allowNo: true }),
    'instance-owner': Flags.boolean({ description: 'Make an instance owner (--no-instance-owner withdraws it)', allowNo: true }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(Update);
    const body = { emailVerified: flags['email-verified'], instanceOwner: flags['instance-owner'] };
    if (body.emailVerified === undefined && body.instanceOwner === undefined) throw new DocsError('invalid', 'give --email-verified or --instance-owner (or their --no- forms)');
    const t = await this.transport(flags);
    const u = (await t.docs('PATCH', `/_docs/users/${encodeURIComponent(args.user)}`, { body })).body as { email: string; emailVerified: boolean; instanceOwner: boolean };
    if (!this.jsonEnabled()) this.log(`User ${u.email}: email ${u.emailVerified ? 'verified' : 'not verified'}, ${u.instanceOwner ? 'an instance owner' : 'not an instance owner'}.`);
    return u;
  }
}
