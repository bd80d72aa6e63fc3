import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { DocsCommand } from '../_lib/base.js';
import { confirmDestructive } from '../_lib/confirm.js';
import { TOKENS_PATH } from '../_lib/tokens.js';

export default class Revoke extends DocsCommand {
  static summary = 'Revoke an API token: requests with it are refused (401) at once';
  static examples = ['<%= config.bin %> tokens revoke tok_3f9a1c0d2b7e6a54', '<%= config.bin %> tokens revoke tok_3f9a1c0d2b7e6a54 --yes'];
  static args = { tokenId: Args.string({ description: 'Token ID (tok_..., see docs tokens list; asked for on a terminal when left out)', required: true }) };
  static flags = { yes: Flags.boolean({ char: 'y', description: 'Confirm without asking (required when not on a terminal)' }) };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(Revoke);
    await confirmDestructive(`Revoke token ${args.tokenId}? (anything using it stops working)`, flags.yes);
    const t = await this.transport(flags);
    const revoked = (await t.docs('DELETE', `${TOKENS_PATH}/${encodeURIComponent(args.tokenId)}`)).body as {
      id: string;
      label: string;
      user: { email: string };
    };
    if (!this.jsonEnabled()) this.log(`Revoked token ${revoked.id} (${revoked.label}) of ${revoked.user.email}.`);
    return revoked;
  }
}
