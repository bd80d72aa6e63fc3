import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transport } from '../../src/transport/types.js';
import { recorder, runBoth } from '../helpers/parity.js';
import { startServer, type TestServer } from '../helpers/server.js';

// Every comment operation, in-process and over HTTP: the same outcomes, field by field.
async function scenario(t: Transport) {
  const { out, step } = recorder();
  const org = (await step(() => t.call('listOrganizationsForAuthenticatedUser'))).items[0].id;
  const spaceId = (await step(() => t.call('createSpace', { path: { organizationId: org }, body: { title: 'Parity' } }))).id;
  const cr = await step(() => t.call('createChangeRequest', { path: { spaceId }, body: { subject: 'CR' } }));
  for (const [suffix, base] of [
    ['InSpace', { spaceId }],
    ['InChangeRequest', { spaceId, changeRequestId: String(cr.number) }],
  ] as const) {
    const c = await step(() => t.call(`postComment${suffix}`, { path: base, body: { body: { markdown: 'Hello *there*' } } }));
    const path = { ...base, commentId: c.id };
    await step(() => t.call(`postComment${suffix}`, { path: base, body: { body: {} } }));
    await step(() => t.call(`updateComment${suffix}`, { path, body: { resolved: true, addedReactions: ['👍'] } }));
    await step(() => t.call(`getComment${suffix}`, { path, query: { format: 'document' } }));
    const r = await step(() => t.call(`postCommentReply${suffix}`, { path, body: { body: { markdown: 'Reply' } } }));
    const replyPath = { ...path, commentReplyId: r.id };
    await step(() => t.call(`updateCommentReply${suffix}`, { path: replyPath, body: { body: { markdown: 'Edited' } } }));
    await step(() => t.call(`getCommentReply${suffix}`, { path: replyPath }));
    await step(() => t.call(`listCommentReplies${suffix}`, { path }));
    await step(() => t.call(`listComments${suffix}`, { path: base, query: { status: 'resolved', order: 'asc' } }));
    await step(() => t.call(`listCommenters${suffix}`, { path: base }));
    await step(() => t.call(`deleteCommentReply${suffix}`, { path: replyPath }));
    await step(() => t.call(`deleteComment${suffix}`, { path }));
    await step(() => t.call(`deleteComment${suffix}`, { path }));
    await step(() => t.call(`getComment${suffix}`, { path }));
  }
  return out;
}

describe('comments: transport parity', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  it('gives the same results in-process and over HTTP', async () => {
    const { local, remote } = await runBoth(server, scenario);
    expect(local).toEqual(remote);
    const text = JSON.stringify(local);
    expect(text).toContain('"kind":"not_found"');
    expect(text).toContain('"kind":"invalid"');
    expect(text).toContain('"status":"resolved"');
  });
});
