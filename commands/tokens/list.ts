import * as Flags from '@oclif/core/flags';
import { DocsCommand } from '../_lib/base.js';
import { renderList } from '../_lib/render.js';
import { TOKENS_PATH } from '../_lib/tokens.js';

export default class List extends DocsCommand {
  static summary = "List a user's API tokens (labels, creation, last use, expiry; never the secret)";
  static examples = ['<%= config.bin %> tokens list', '<%= config.bin %> tokens list --user ann@acme.com --json'];
  static flags = {
    user: Flags.string({ description: 'Whose tokens: a user id or an email address (default: yours; those of another user need an instance owner)' }),
  };

  async run(): Promise<unknown> {
    const { flags } = await this.parse(List);
    const t = await this.transport(flags);
    const list = (await t.docs('GET', TOKENS_PATH, { query: { user: flags.user } })).body as { items: Record<string, unknown>[] };
    if (!this.jsonEnabled()) {
      const rows = list.items.map((i: any) => ({
        id: i.id,
        label: i.label,
        user: i.user.email,
        created: i.createdAt,
        'last used': i.lastUsedAt ?? 'never',
        expires: i.expiresAt ?? 'never',
      }));
      const table = await renderList(rows, ['id', 'label', 'user', 'created', 'last used', 'expires'], 'No tokens.');
      if (table) this.log(table);
    }
    return list;
  }
}
