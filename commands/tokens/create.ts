import * as Flags from '@oclif/core/flags';
import { DocsCommand } from '../_lib/base.js';
import { expiresAt, TOKENS_PATH } from '../_lib/tokens.js';

export default class Create extends DocsCommand {
  static summary = 'Create an API token for a user (yours; an instance owner for anyone)';
  static description =
    `Prints the new token once: only its hash is kept. Anyone creates tokens for themself; an instance owner also for any user (an invited user gets their first token this way). An organization admin cannot: a token acts in every organization of its user. In-process on the data directory, or through the server holding it (its /_docs/tokens route, with your token).`;
  static examples = [
    '<%= config.bin %> tokens create --user ann@acme.com --label laptop --expires 90d',
    'DOCS_TOKEN=$(<%= config.bin %> tokens create --user ci@acme.com --label ci --expires 2027-01-31 --jq .token)',
    '<%= config.bin %> tokens create --user owner@localhost --data ./docs-data   # while docs serve holds ./docs-data too',
  ];
  static flags = {
    user: Flags.string({ description: 'The user the token acts as: a user id or an email address', required: true }),
    label: Flags.string({ description: 'What the token is for, shown by docs tokens list (default: cli)' }),
    expires: Flags.string({ description: 'When it stops working: a duration from now (30m, 12h, 90d, 2w) or a date (2027-01-31); default: never' }),
  };

  async run(): Promise<unknown> {
    const { flags } = await this.parse(Create);
    const body = {
      user: flags.user,
      ...(flags.label !== undefined ? { label: flags.label } : {}),
      ...(flags.expires ? { expiresAt: expiresAt(flags.expires) } : {}),
    };
    const t = await this.transport(flags);
    const created = (await t.docs('POST', TOKENS_PATH, { body })).body as { id: string; token: string; user: { email: string }; expiresAt: string | null };
    if (!this.jsonEnabled()) {
      process.stderr.write(
        `Created token ${created.id} for ${created.user.email}${created.expiresAt ? ` (expires ${created.expiresAt})` : ''}. It is shown only now:\n`,
      );
      this.log(created.token);
    }
    return created;
  }
}
