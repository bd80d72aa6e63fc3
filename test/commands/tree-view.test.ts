import { describe, expect, it } from 'vitest';
import { chooseCollection, chooseSpace } from '../../commands/_lib/pick.js';
import { buildTree, renderTree, type Node } from '../../commands/_lib/tree-view.js';
import { bootstrap } from '../../src/auth/bootstrap.js';
import { openContext } from '../../src/open.js';
import { LocalTransport } from '../../src/transport/local.js';

const col = (id: string, title: string, parent?: string): Node => ({ object: 'collection', id, title, ...(parent ? { parent } : {}) });
const sp = (id: string, title: string, parent?: string, emoji = ''): Node => ({ object: 'space', id, title, emoji, ...(parent ? { parent } : {}) });

describe('spaces list --tree', () => {
  it('puts each space under its collection, collections first, indented by depth', () => {
    const tree = buildTree(
      [col('c1', 'Guides'), col('c2', 'Deep', 'c1'), col('c3', 'Other')],
      [sp('s1', 'Intro', 'c1', '📘'), sp('s2', 'Inner', 'c2'), sp('s3', 'Root'), sp('s4', 'Hidden parent', 'cX')],
    );
    expect(renderTree(tree)).toBe(['c1  Guides/', 'c2    Deep/', 's2      Inner', 's1    📘 Intro', 'c3  Other/', 's3  Root', 's4  Hidden parent'].join('\n'));
    expect(tree[0]!.children!.map((n) => n.id)).toEqual(['c2', 's1']);
    expect(renderTree([])).toBe('No collections or spaces.');
  });
});

describe('pickers for a missing SPACE or COLLECTION', () => {
  it('offer what the caller can see, labelled by organization when there are several', async () => {
    const ctx = await openContext(undefined);
    const boot = (await bootstrap(ctx, 'gb_api_pick'))!;
    const t = await LocalTransport.as(ctx, undefined, { userId: boot.userId }, 'memory');
    const org = ((await t.call('listOrganizationsForAuthenticatedUser')).body as any).items[0];
    const c = (await t.call('createCollection', { path: { organizationId: org.id }, body: { title: 'Guides' } })).body as any;
    const s = (await t.call('createSpace', { path: { organizationId: org.id }, body: { title: 'API', parent: c.id } })).body as any;
    expect(await chooseSpace(t)).toEqual([{ name: 'API', value: s.id }]);
    expect(await chooseCollection(t)).toEqual([{ name: 'Guides', value: c.id }]);
    const other = (await t.call('createOrganization', { body: { title: 'Other' } })).body as any;
    const s2 = (await t.call('createSpace', { path: { organizationId: other.id }, body: { title: 'Elsewhere' } })).body as any;
    expect(await chooseSpace(t)).toEqual([
      { name: `API (${org.title})`, value: s.id },
      { name: 'Elsewhere (Other)', value: s2.id },
    ]);
    await ctx.store.close();
  });
});
