import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PICKERS, pickerFor, type PickContext } from '../../commands/_lib/pick.js';
import { TOKENS_PATH } from '../../commands/_lib/tokens.js';
import { packageRoot } from '../../src/kernel/root.js';
import { LocalTransport } from '../../src/transport/local.js';
import type { Transport } from '../../src/transport/types.js';
import { startServer, TEST_TOKEN, type TestServer } from '../helpers/server.js';
import { buildWorld, type World } from '../helpers/world.js';

// Issue 20 item 10: on a terminal, a left-out id argument is picked from a list of the right
// kind, labelled in words. The choice lists are computed here against an in-process transport
// on a prepared world (one of everything), no terminal needed.
describe('pickers', () => {
  let s: TestServer;
  let w: World;
  let transport: Transport;
  const ctx = (values: Record<string, string>, flags: Record<string, any> = {}): PickContext => ({ transport, values, flags });

  beforeAll(async () => {
    s = await startServer();
    w = await buildWorld(s);
    transport = await LocalTransport.as(s.ctx, TEST_TOKEN, undefined, 'test');
  }, 60_000);
  afterAll(() => s?.stop());

  it('every id argument of every command has a picker, labelled in words', () => {
    const manifest = JSON.parse(readFileSync(join(packageRoot(), 'oclif.manifest.json'), 'utf8'));
    const without: string[] = [];
    for (const c of Object.values<any>(manifest.commands)) {
      for (const name of Object.keys(c.args ?? {})) if (/(Id|Name|Slug)$/.test(name) && !pickerFor(name)) without.push(`${c.id} ${name}`);
    }
    expect(without).toEqual([]);
    for (const [name, p] of Object.entries(PICKERS)) {
      // Words ("Change request"), not the parameter ("changeRequestId").
      expect(p.label, name).toMatch(/^[A-Z][A-Za-z]*( [A-Za-z]+)*$/);
      expect(p.label, name).not.toMatch(/Id$|[a-z][A-Z][a-z]/);
    }
  });

  it('lists the things of the right kind, with their names', async () => {
    const { ids } = w;
    const org = ids.organizationId!;
    const cases: [string, Record<string, string>, string, RegExp][] = [
      ['organizationId', {}, org, /./],
      ['spaceId', {}, ids.spaceId!, /World space/],
      ['collectionId', {}, ids.collectionId!, /World collection/],
      ['siteId', {}, ids.siteId!, /World site/],
      ['siteSpaceId', { organizationId: org, siteId: ids.siteId! }, ids.siteSpaceId!, /World space/],
      ['siteSectionId', { organizationId: org, siteId: ids.siteId! }, ids.siteSectionId!, /Guides/],
      ['siteSectionGroupId', { organizationId: org, siteId: ids.siteId! }, ids.siteSectionGroupId!, /Products/],
      ['shareLinkId', { organizationId: org, siteId: ids.siteId! }, ids.shareLinkId!, /Partners/],
      ['changeRequestId', { spaceId: ids.spaceId! }, ids.changeRequestId!, /#\d+ Open change \[open\]/],
      ['pageId', { spaceId: ids.spaceId! }, ids.pageId!, /Intro \(intro\)/],
      ['fileId', { spaceId: ids.spaceId! }, ids.fileId!, /notes\.txt/],
      ['commentId', { spaceId: ids.spaceId! }, ids.commentId!, /Is the install step right\?/],
      ['specSlug', {}, ids.specSlug!, /world-spec/],
      ['versionId', { organizationId: org, specSlug: ids.specSlug! }, ids.versionId!, /./],
      ['integrationName', {}, ids.integrationName!, /World tool \(world-integration\)/],
      ['installationId', { integrationName: ids.integrationName! }, ids.installationId!, /organization/],
      ['eventId', { integrationName: ids.integrationName! }, ids.eventId!, /./],
      ['userId', {}, ids.userId!, /\(read\)/],
      ['teamId', {}, ids.teamId!, /World team/],
      ['inviteId', {}, ids.inviteId!, /read link/],
      ['samlProviderId', {}, ids.samlProviderId!, /World IdP/],
      ['translationId', {}, ids.translationId!, /^fr of /],
      ['conversationId', {}, ids.conversationId!, /Reset email never arrives/],
      ['agentTaskId', {}, ids.agentTaskId!, /^Answer in the docs: .* \[(backlog|canceled)\]$/],
    ];
    // The caller's API tokens (docs tokens list) and the built-in templates.
    const me = (await transport.call('getAuthenticatedUser')).body as { id: string };
    const token = (await transport.docs('POST', TOKENS_PATH, { body: { user: me.id, label: 'CI publisher' } })).body as { id: string };
    cases.push(['tokenId', {}, token.id, /^CI publisher \(tok_.*; last used never\)$/], ['templateId', {}, 'faq', /\(faq\)$/]);
    for (const [name, values, expected, label] of cases) {
      const choices = await PICKERS[name]!.choices(ctx(values));
      const hit = choices.find((c) => c.value === expected);
      expect(hit, `${name}: ${JSON.stringify(choices)}`).toBeDefined();
      expect(hit!.name, name).toMatch(label);
    }
  });

  it('depends on the answers before it: change requests of the chosen space, its pages and comments', async () => {
    const { ids } = w;
    const other = (await w.owner('POST', `/v1/orgs/${ids.organizationId}/spaces`, { title: 'Other space' })).id;
    expect(await PICKERS.changeRequestId!.choices(ctx({ spaceId: other }))).toEqual([]);
    // Pages of the change request (its own version of the tree), comments of the change request (--change-request).
    const crPages = await PICKERS.pageId!.choices(ctx({ spaceId: ids.spaceId!, changeRequestId: ids.changeRequestId! }));
    expect(crPages.map((c) => c.value)).toContain(ids.pageId);
    const crComments = await PICKERS.commentId!.choices(ctx({ spaceId: ids.spaceId! }, { 'change-request': ids.changeRequestId }));
    expect(crComments.map((c) => c.value)).toEqual([ids.crCommentId]);
    // A site's children without a known organization: the one holding the site.
    const sections = await PICKERS.siteSectionId!.choices(ctx({ siteId: ids.siteId! }));
    expect(sections.map((c) => c.value)).toContain(ids.siteSectionId);
    // The command's organization (--org) is used when it has one.
    let asked = 0;
    const inOrg = await PICKERS.siteId!.choices({ transport, values: {}, flags: {}, organization: async () => (asked++, ids.organizationId!) });
    expect(inOrg.map((c) => c.value)).toContain(ids.siteId);
    expect(asked).toBe(1);
    // A picker whose earlier argument is missing says what to give first.
    await expect(PICKERS.changeRequestId!.choices(ctx({}))).rejects.toThrow(/space first/);
  });
});
