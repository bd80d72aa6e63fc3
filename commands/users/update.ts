import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { DocsCommand } from '../_lib/base.js';
import { DocsError } from '../../src/kernel/errors.js';
import type { Transport } from '../../src/transport/types.js';

export default class Update extends DocsCommand {
  static operations = ['updateUserById'];
  static summary =
    "Change a user's name or photo (yourself, or anyone as an instance owner); mark an email verified or designate an instance owner (instance owners only)";
  static description =
    "The name and photo are changed with the API (PATCH /v1/users/{userId}, updateUserById). A verified email lets its user join organizations by email domain (docs orgs join). An instance owner creates and revokes anyone's tokens, lists users and changes these marks. The bootstrap owner keeps both.";
  static examples = [
    '<%= config.bin %> users update me --display-name "Ann Lee" --photo-url https://example.com/ann.png',
    '<%= config.bin %> users update ann@acme.com --email-verified',
    '<%= config.bin %> users update bob@acme.com --instance-owner',
    '<%= config.bin %> users update bob@acme.com --no-instance-owner --no-email-verified',
  ];
  static args = { user: Args.string({ description: 'A user ID or email address (me: yourself)', required: true }) };
  static flags = {
    'display-name': Flags.string({ description: 'New full name (1 to 64 characters)' }),
    'photo-url': Flags.string({ description: 'New photo (an http(s) URL)' }),
    'email-verified': Flags.boolean({ description: 'Vouch for the email address (--no-email-verified withdraws it)', allowNo: true }),
    'instance-owner': Flags.boolean({ description: 'Make an instance owner (--no-instance-owner withdraws it)', allowNo: true }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(Update);
    const profile = { displayName: flags['display-name'], photoURL: flags['photo-url'] };
    const marks = { emailVerified: flags['email-verified'], instanceOwner: flags['instance-owner'] };
    const changesProfile = profile.displayName !== undefined || profile.photoURL !== undefined;
    const changesMarks = marks.emailVerified !== undefined || marks.instanceOwner !== undefined;
    if (!changesProfile && !changesMarks)
      throw new DocsError('invalid', 'give --display-name, --photo-url, --email-verified or --instance-owner (or their --no- forms)');
    const t = await this.transport(flags);
    let out: any;
    if (changesProfile) {
      const userId = await userIdOf(t, args.user);
      out = (await t.call('updateUserById', { path: { userId }, query: {}, body: profile })).body;
      if (!this.jsonEnabled()) this.log(`Updated user ${out.email ?? out.id}: ${out.displayName}${out.photoURL ? ` (photo ${out.photoURL})` : ''}.`);
    }
    if (changesMarks) {
      const ref = args.user === 'me' ? (out?.id ?? (await userIdOf(t, 'me'))) : args.user;
      const u = (await t.docs('PATCH', `/_docs/users/${encodeURIComponent(ref)}`, { body: marks })).body as {
        email: string;
        emailVerified: boolean;
        instanceOwner: boolean;
      };
      if (!this.jsonEnabled())
        this.log(
          `User ${u.email}: email ${u.emailVerified ? 'verified' : 'not verified'}, ${u.instanceOwner ? 'an instance owner' : 'not an instance owner'}.`,
        );
      out = out ? { ...out, emailVerified: u.emailVerified, instanceOwner: u.instanceOwner } : u;
    }
    return out;
  }
}

/** A user id from `me`, an id, or an email address (yours, or anyone's for an instance owner). */
async function userIdOf(t: Transport, ref: string): Promise<string> {
  if (ref !== 'me' && !ref.includes('@')) return ref;
  const me = (await t.call('getAuthenticatedUser', { path: {}, query: {} })).body as { id: string; email: string };
  if (ref === 'me' || ref.toLowerCase() === me.email.toLowerCase()) return me.id;
  return ((await t.docs('GET', `/_docs/users/${encodeURIComponent(ref)}`)).body as { id: string }).id;
}
