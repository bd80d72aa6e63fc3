import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let org: string;
let owner: string;
beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  owner = (await s.api('GET', '/v1/user')).body.id;
});
afterAll(() => s.stop());

type Rule = { rule: string; users?: string[] };
const setRules = async (space: string, rules: Rule[] | 'inherit') => {
  const r = await s.api('PATCH', `/v1/spaces/${space}`, { body: { mergeRules: rules === 'inherit' ? { type: 'inherit' } : { type: 'rules', rules } } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
};
/** A space with one change request by an editor, holding one new page. */
async function setup(rules?: Rule[] | 'inherit', subject = 'Add a page') {
  const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Ruled' } })).body.id as string;
  if (rules) await setRules(space, rules);
  const author = await addUser(s.ctx, org, 'edit');
  const cr = (await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject }, token: author.token })).body;
  await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/content`, {
    token: author.token,
    body: { changes: [{ operation: 'insert_page', title: 'P', document: { markdown: 'p' } }] },
  });
  return { space, cr, author };
}
const merge = (space: string, cr: string, token?: string) => s.api('POST', `/v1/spaces/${space}/change-requests/${cr}/merge`, { token });
const review = (space: string, cr: string, token: string, status = 'approved') =>
  s.api('POST', `/v1/spaces/${space}/change-requests/${cr}/reviews`, { token, body: { status } });
const refused = async (space: string, cr: string, pattern: RegExp, token?: string) => {
  const r = await merge(space, cr, token);
  expect(r.status, JSON.stringify(r.body)).toBe(412);
  expect(r.body.error.message).toMatch(pattern);
  expect((await s.api('GET', `/v1/spaces/${space}/change-requests/${cr}`)).body.status).toBe('open');
  expect((await s.api('GET', `/v1/spaces/${space}/content/pages`)).body.pages).toEqual([]);
};

describe('merge rules', () => {
  it('require_specific_reviewers: every named user must approve the current revision', async () => {
    const [a, b] = [await addUser(s.ctx, org, 'review'), await addUser(s.ctx, org, 'review')];
    const { space, cr } = await setup([{ rule: 'require_specific_reviewers', users: [a.userId, b.userId] }]);
    await refused(
      space,
      cr.id,
      new RegExp(`^merge rule require_specific_reviewers \\(mergeRules.rules\\[0\\]\\) is not met: approval from ${a.userId}, ${b.userId} is missing`),
    );
    await review(space, cr.id, a.token);
    await review(space, cr.id, b.token, 'changes-requested');
    await refused(space, cr.id, new RegExp(`approval from ${b.userId} is missing`));
    await review(space, cr.id, b.token);
    const ok = await merge(space, cr.id);
    expect(ok.status).toBe(200);
    expect(ok.body.result).toBe('merge');
  });

  it('approvals made before the content changed do not count', async () => {
    const a = await addUser(s.ctx, org, 'review');
    const { space, cr, author } = await setup([{ rule: 'require_at_least_one_review' }]);
    await refused(space, cr.id, /require_at_least_one_review .* no approving review on the current revision/);
    await review(space, cr.id, a.token);
    await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/content`, {
      token: author.token,
      body: { changes: [{ operation: 'insert_page', title: 'Q', document: { markdown: 'q' } }] },
    });
    await refused(space, cr.id, /no approving review/);
    await review(space, cr.id, a.token);
    expect((await merge(space, cr.id)).status).toBe(200);
  });

  it('require_one_of_specific_reviewers, require_all_reviews_approved (pending requests count), allow_bypass', async () => {
    const [a, b, c] = [await addUser(s.ctx, org, 'review'), await addUser(s.ctx, org, 'review'), await addUser(s.ctx, org, 'review')];
    const { space, cr, author } = await setup([
      { rule: 'require_one_of_specific_reviewers', users: [a.userId, b.userId] },
      { rule: 'require_all_reviews_approved' },
      { rule: 'allow_bypass', users: [owner] },
    ]);
    await refused(space, cr.id, /require_one_of_specific_reviewers .* one of/, c.token);
    await review(space, cr.id, b.token);
    await review(space, cr.id, c.token, 'changes-requested');
    await refused(space, cr.id, new RegExp(`require_all_reviews_approved \\(mergeRules.rules\\[1\\]\\) is not met: changes requested by ${c.userId}`), a.token);
    await review(space, cr.id, c.token);
    await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/requested-reviewers`, { token: author.token, body: { users: [a.userId] } });
    await refused(space, cr.id, new RegExp(`review requested from ${a.userId} is still pending`), c.token);
    // The owner is named by allow_bypass: merges without a's review.
    expect((await merge(space, cr.id)).status).toBe(200);
  });

  it('inherit takes the organization rules; subject and description rules; unevaluable rules refuse', async () => {
    const patchOrg = (mergeRules: object) => s.api('PATCH', `/v1/orgs/${org}`, { body: { mergeRules } });
    expect(
      (await patchOrg({ type: 'rules', rules: [{ rule: 'require_change_request_subject' }, { rule: 'require_change_request_description' }] })).status,
    ).toBe(200);
    try {
      const { space, cr, author } = await setup('inherit', '');
      await refused(space, cr.id, /^merge rule require_change_request_subject \(the organization's mergeRules.rules\[0\]\) is not met/);
      const doc = {
        object: 'document',
        data: {},
        nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Why: clarity', marks: [] }] }] }],
      };
      const reviewer = await addUser(s.ctx, org, 'review');
      await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/requested-reviewers`, {
        token: author.token,
        body: { users: [reviewer.userId], subject: 'Now titled' },
      });
      await refused(space, cr.id, /require_change_request_description .* no description/);
      await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/requested-reviewers`, {
        token: author.token,
        body: { users: [reviewer.userId], description: doc },
      });
      expect((await merge(space, cr.id)).status).toBe(200);
      // A space's own rules replace the organization's; none lets anything merge.
      const other = await setup('inherit');
      await setRules(other.space, []);
      expect((await merge(other.space, other.cr.id)).status).toBe(200);
    } finally {
      await patchOrg({ type: 'none' });
    }
    const agent = await setup([{ rule: 'require_agent_review' }]);
    await refused(agent.space, agent.cr.id, /require_agent_review .* no agent reviews exist on this server/);
  });

  it('require_up_to_date_change_request: the space must not have moved since the base', async () => {
    const { space, cr } = await setup([{ rule: 'require_up_to_date_change_request' }]);
    const other = (await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'First' } })).body;
    await s.api('POST', `/v1/spaces/${space}/change-requests/${other.id}/content`, {
      body: { changes: [{ operation: 'insert_page', title: 'Z', document: { markdown: 'z' } }] },
    });
    expect((await merge(space, other.id)).status).toBe(200);
    const r = await merge(space, cr.id);
    expect(r.status).toBe(412);
    expect(r.body.error.message).toMatch(/require_up_to_date_change_request .* the space changed since/);
  });
});
