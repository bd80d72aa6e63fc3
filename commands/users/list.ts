import { DocsCommand } from '../_lib/base.js';
import { renderList } from '../_lib/render.js';

export default class List extends DocsCommand {
  static summary = "List the instance's users: verified email, instance owner (instance owners only)";
  static examples = ['<%= config.bin %> users list', '<%= config.bin %> users list --json --jq ".items[] | select(.emailVerified | not) | .email"'];

  async run(): Promise<unknown> {
    const { flags } = await this.parse(List);
    const t = await this.transport(flags);
    const list = (await t.docs('GET', '/_docs/users')).body as {
      items: { id: string; email: string; displayName: string; emailVerified: boolean; instanceOwner: boolean; bootstrap: boolean }[];
    };
    if (!this.jsonEnabled()) {
      const yes = (b: boolean) => (b ? 'yes' : 'no');
      const rows = list.items.map((u) => ({
        id: u.id,
        email: u.email,
        name: u.displayName,
        'email verified': yes(u.emailVerified),
        'instance owner': u.bootstrap ? 'yes (bootstrap)' : yes(u.instanceOwner),
      }));
      const table = await renderList(rows, ['id', 'email', 'name', 'email verified', 'instance owner'], 'No users.');
      if (table) this.log(table);
    }
    return list;
  }
}
