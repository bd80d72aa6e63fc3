import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../_lib/operation-command.js';
import { listAll } from '../_lib/pages.js';
import { renderList } from '../_lib/render.js';
import { buildTree, renderTree, type Node } from '../_lib/tree-view.js';
import { organizationOf } from '../_lib/org.js';

const List = operationCommand({
  operationId: 'listSpacesInOrganizationById',
  description: 'List the spaces of an organization, with --tree its collections and spaces, or with --deleted those deleted and still restorable',
  examples: [
    '<%= config.bin %> spaces list',
    '<%= config.bin %> spaces list --tree',
    '<%= config.bin %> spaces list --deleted   # restorable until "purge at" (deleted + 7 days)',
    '<%= config.bin %> spaces list --org 6yZr3RyMqly3HeMx6Xkr --limit 20 --json',
  ],
  columns: ['id', 'title', 'parent', 'visibility', 'updatedAt'],
  orgFlag: true,
  flags: {
    tree: Flags.boolean({ description: 'Show the collection tree: spaces under their collections, indented (every page)' }),
    deleted: Flags.boolean({ description: 'List deleted spaces still restorable, with when each is purged for good (deleted + 7 days)', exclusive: ['tree'] }),
  },
});

export default class SpacesList extends List {
  async run(): Promise<unknown> {
    const flags = (await this.parse(SpacesList)).flags as Record<string, any>;
    if (flags.deleted) return this.deleted(flags);
    if (!flags.tree) return super.run();
    const transport = await this.transport(flags);
    const organizationId: string = await organizationOf(flags, transport);
    const collections = await listAll<Node>(transport, 'listCollectionsInOrganizationById', { organizationId });
    const spaces = await listAll<Node>(transport, 'listSpacesInOrganizationById', { organizationId });
    const tree = buildTree(collections, spaces);
    if (!this.jsonEnabled()) this.log(renderTree(tree));
    return tree;
  }

  /** No contract operation lists deleted spaces: this server's /_docs/deleted-spaces does (src/spaces/deleted.ts). */
  private async deleted(flags: Record<string, any>): Promise<unknown> {
    const transport = await this.transport(flags);
    const organization = await organizationOf(flags, transport);
    const list = (await transport.docs('GET', '/_docs/deleted-spaces', { query: { organization } })).body as { items: any[]; count: number };
    if (!this.jsonEnabled()) {
      const rows = list.items.map((i) => ({
        id: i.id,
        title: i.title,
        deleted: i.deletedAt,
        'purge at': i.purgeAt,
        restorable: i.restorable ? 'yes' : 'no (needs admin)',
      }));
      const table = await renderList(rows, ['id', 'title', 'deleted', 'purge at', 'restorable'], 'No deleted spaces to restore.');
      if (table) this.log(table);
      if (rows.length) process.stderr.write(`Restore one with: docs spaces restore ${list.items[0].id}\n`);
    }
    return list;
  }
}
