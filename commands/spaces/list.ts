import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../_lib/operation-command.js';
import { listAll } from '../_lib/pick.js';
import { buildTree, renderTree, type Node } from '../_lib/tree-view.js';
import { organizationOf } from '../_lib/org.js';

const List = operationCommand({
  operationId: 'listSpacesInOrganizationById',
  description: 'List the spaces of an organization, or with --tree its collections and spaces',
  examples: [
    '<%= config.bin %> spaces list',
    '<%= config.bin %> spaces list --tree',
    '<%= config.bin %> spaces list --org 6yZr3RyMqly3HeMx6Xkr --limit 20 --json',
  ],
  columns: ['id', 'title', 'parent', 'visibility', 'updatedAt'],
  orgFlag: true,
  flags: { tree: Flags.boolean({ description: 'Show the collection tree: spaces under their collections, indented (every page)' }) },
});

export default class SpacesList extends List {
  async run(): Promise<unknown> {
    const flags = (await this.parse(SpacesList)).flags as Record<string, any>;
    if (!flags.tree) return super.run();
    const transport = await this.transport(flags);
    const organizationId: string = (await organizationOf(flags, transport));
    const collections = await listAll<Node>(transport, 'listCollectionsInOrganizationById', { organizationId });
    const spaces = await listAll<Node>(transport, 'listSpacesInOrganizationById', { organizationId });
    const tree = buildTree(collections, spaces);
    if (!this.jsonEnabled()) this.log(renderTree(tree));
    return tree;
  }
}
