import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/kernel/clock.js';
import { conversationsIdle } from '../../src/conversations/processor.js';
import { requireCluster } from '../../src/conversations/service.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { addPerson, newOrg, outsider } from '../organizations/people.js';

const clock = new ManualClock(Date.parse('2026-06-01T12:00:00.000Z'));
let s: TestServer;
let org: string;
const base = (o = org) => `/v1/orgs/${o}`;

beforeAll(async () => {
  s = await startServer({ clock });
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
});
afterAll(async () => {
  await s.stop();
});

const msg = (body: string, role = 'user') => ({ type: 'message', role, body });
const DAY = 24 * 3600 * 1000;
const ago = (days: number) => new Date(clock.now().getTime() - days * DAY).toISOString();

/** Ingests, then waits for the processing that runs off the request path. */
async function ingest(body: unknown, o = org, token?: string) {
  const r = await s.api('POST', `${base(o)}/conversations`, { body, ...(token ? { token } : {}) });
  await conversationsIdle(s.ctx);
  return r;
}

async function all(path: string) {
  return (await s.api('GET', `${path}${path.includes('?') ? '&' : '?'}limit=1000`)).body;
}

describe('ingesting conversations', () => {
  it('stores one conversation (204), processes it off the request path, and serves it', async () => {
    const o = await newOrg(s);
    const r = await s.api('POST', `${base(o)}/conversations`, {
      body: {
        id: 'ticket-1',
        subject: 'Cannot reset my password',
        metadata: { url: 'https://support.example.com/t/1', attributes: { plan: 'pro' }, createdAt: ago(3) },
        parts: [msg('I cannot reset my password: the reset email never arrives.'), msg('Look in spam.', 'assistant')],
      },
    });
    expect(r.status).toBe(204);
    expect(r.body).toBeUndefined();
    await conversationsIdle(s.ctx);
    const list = await all(`${base(o)}/conversations`);
    expect(list.count).toBe(1);
    const c = list.items[0];
    expect(c).toMatchObject({ object: 'conversation', subject: 'Cannot reset my password', createdAt: ago(3), processedAt: clock.now().toISOString() });
    expect(c.source).toMatch(/^integration:api:/);
    expect(c.urls).toEqual({ location: `${s.url}${base(o)}/conversations/${c.id}`, source: 'https://support.example.com/t/1' });
    const got = await s.api('GET', `${base(o)}/conversations/${c.id}`);
    expect(got.body).toEqual({
      conversation: c,
      parts: [msg('I cannot reset my password: the reset email never arrives.'), msg('Look in spam.', 'assistant')],
      metadata: { url: 'https://support.example.com/t/1', attributes: { plan: 'pro' }, createdAt: ago(3) },
    });
    // One issue, from what the user wrote, titled by the subject.
    const issues = await all(`${base(o)}/conversations-issues`);
    expect(issues.count).toBe(1);
    expect(issues.items[0].issue).toMatchObject({
      object: 'conversation-issue',
      title: 'Cannot reset my password',
      conversation: c.id,
      createdAt: ago(3),
      ingestedAt: clock.now().toISOString(),
    });
    expect(issues.items[0].issue.summary).toContain('reset email never arrives');
    expect(issues.items[0].issue.summary).not.toContain('spam'); // the assistant's answer is not the issue
    expect(issues.items[0].conversation).toEqual(c);
    const one = await s.api('GET', `${base(o)}/conversations-issues/${issues.items[0].issue.id}`);
    expect(one.body).toEqual(issues.items[0]);
  });

  it('re-ingesting the same id updates the conversation and replaces its issues, never duplicates', async () => {
    const o = await newOrg(s);
    await ingest({ id: 'same', subject: 'Billing', parts: [msg('My invoice shows the wrong VAT number for our company billing address.')] }, o);
    const first = (await all(`${base(o)}/conversations`)).items[0];
    const firstIssue = (await all(`${base(o)}/conversations-issues`)).items[0].issue;
    clock.advance(60_000);
    await ingest([{ id: 'same', subject: 'Billing again', parts: [msg('The invoice VAT number is still wrong on the billing address.')] }], o);
    const list = await all(`${base(o)}/conversations`);
    expect(list.count).toBe(1);
    expect(list.items[0]).toMatchObject({ id: first.id, subject: 'Billing again', createdAt: first.createdAt });
    const issues = await all(`${base(o)}/conversations-issues`);
    expect(issues.count).toBe(1);
    expect(issues.items[0].issue.title).toBe('Billing again');
    expect(issues.items[0].issue.id).not.toBe(firstIssue.id);
    expect((await s.api('GET', `${base(o)}/conversations-issues/${firstIssue.id}`)).status).toBe(404);
    const clusters = await all(`${base(o)}/conversations-clusters`);
    expect(clusters.count).toBe(1); // the emptied cluster is gone, the issue is in one cluster
    expect(clusters.items[0].stats).toMatchObject({ issues: 1, conversations: 1 });
  });

  it('refuses bad shapes with 400 naming the field, storing nothing of the batch', async () => {
    const o = await newOrg(s);
    const bad = async (body: unknown, message: string | RegExp) => {
      const r = await ingest(body, o);
      expect(r.status).toBe(400);
      expect(r.body.error.message).toMatch(message);
    };
    await bad({ parts: [msg('hello')] }, /id/);
    await bad({ id: 'x', parts: [{ type: 'message', role: 'robot', body: 'hi' }] }, /role/);
    await bad({ id: 'x', parts: [] }, 'parts: must have at least one message');
    await bad(
      [
        { id: 'ok', parts: [msg('fine message')] },
        { id: 'x', parts: [msg('   ')] },
      ],
      '[1].parts[0].body: must not be empty',
    );
    await bad(
      [
        { id: 'a', parts: [msg('one')] },
        { id: 'a', parts: [msg('two')] },
      ],
      '[1].id: "a" appears twice in this request (also at [0])',
    );
    await bad({ id: 'x', metadata: { url: 'not a url' }, parts: [msg('text')] }, 'metadata.url: must be an absolute http(s) URL');
    await bad({ id: 'x', subject: 'y'.repeat(513), parts: [msg('text')] }, /subject/);
    await bad([], 'body: give at least one conversation');
    expect((await all(`${base(o)}/conversations`)).count).toBe(0);
  });

  it('needs the admin role to ingest (403), read and up to read; non-members get 404', async () => {
    const o = await newOrg(s);
    await ingest({ id: 'c1', parts: [msg('Search results do not show pages from the API reference section.')] }, o);
    const editor = await addPerson(s, o, 'create');
    const guest = await addPerson(s, o, null);
    const reader = await addPerson(s, o, 'read');
    const stranger = await outsider(s);
    const denied = await s.api('POST', `${base(o)}/conversations`, { token: editor.token, body: { id: 'c2', parts: [msg('x')] } });
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toBe('ingesting conversations needs the admin role in this organization (you have create)');
    expect((await s.api('GET', `${base(o)}/conversations`, { token: reader.token })).body.count).toBe(1);
    expect((await s.api('GET', `${base(o)}/conversations-clusters`, { token: reader.token })).body.count).toBe(1);
    const g = await s.api('GET', `${base(o)}/conversations-issues`, { token: guest.token });
    expect(g.status).toBe(403);
    expect(g.body.error.message).toBe('reading conversations needs the read role in this organization (you have guest)');
    for (const path of ['conversations', 'conversations-issues', 'conversations-clusters']) {
      expect((await s.api('GET', `${base(o)}/${path}`, { token: stranger.token })).status).toBe(404);
    }
    expect((await s.api('POST', `${base(o)}/conversations`, { token: stranger.token, body: { id: 'c3', parts: [msg('x')] } })).status).toBe(404);
    // A conversation of another organization is not found through this one.
    const id = (await all(`${base(o)}/conversations`)).items[0].id;
    expect((await s.api('GET', `${base()}/conversations/${id}`)).status).toBe(404);
  });
});

describe('issues and clusters', () => {
  it('puts conversations about the same topic together and different topics apart', async () => {
    const o = await newOrg(s);
    await ingest(
      [
        { id: 'p1', parts: [msg('I cannot reset my password, the password reset email never arrives in my inbox.')] },
        { id: 's1', parts: [msg('How do I configure a custom domain for our published site? The DNS CNAME record is not verified.')] },
        { id: 'p2', parts: [msg('Hello! Password reset link expired before I could reset my password.')] },
        { id: 's2', parts: [msg('Custom domain setup fails: DNS CNAME verification for the site keeps failing.')] },
        { id: 'p3', subject: 'Login', parts: [msg('Forgot my password and the reset email is not arriving.')] },
      ],
      o,
    );
    const convs = await all(`${base(o)}/conversations`);
    const byExt = new Map<string, string>();
    for (const c of convs.items) {
      const d = (await s.api('GET', `${base(o)}/conversations/${c.id}`)).body;
      byExt.set(d.parts[0].body.slice(0, 12), c.id);
    }
    const issues = (await all(`${base(o)}/conversations-issues`)).items.map((x: any) => x.issue);
    expect(issues).toHaveLength(5);
    const clusterOf = (start: string) => issues.find((i: any) => i.conversation === byExt.get(start))!.cluster;
    const pw = clusterOf('I cannot res');
    const dom = clusterOf('How do I con');
    expect(pw).not.toBe(dom);
    expect(clusterOf('Hello! Passw')).toBe(pw);
    expect(clusterOf('Forgot my pa')).toBe(pw);
    expect(clusterOf('Custom domai')).toBe(dom);
    const clusters = await all(`${base(o)}/conversations-clusters?orderBy=issues`);
    expect(clusters.count).toBe(2);
    expect(clusters.items.map((c: any) => c.id)).toEqual([pw, dom]);
    expect(clusters.items[0].stats).toEqual({
      issues: 3,
      conversations: 3,
      tasksTotal: 0,
      tasksBacklog: 0,
      tasksStarted: 0,
      tasksCompleted: 0,
      tasksCancelled: 0,
    });
    expect(clusters.items[0].summary).toMatch(/^3 issues from 3 conversations about .*password/);
    expect(clusters.items[0].label.toLowerCase()).toContain('password');
    expect(Object.values(clusters.items[0].sources)).toEqual([3]);
    expect((await all(`${base(o)}/conversations-clusters?orderBy=issues&order=asc`)).items.map((c: any) => c.id)).toEqual([dom, pw]);
    // Filters: by cluster, by conversation.
    const inPw = await all(`${base(o)}/conversations-issues?cluster=${pw}`);
    expect(inPw.count).toBe(3);
    expect(inPw.items.every((x: any) => x.issue.cluster === pw)).toBe(true);
    const ofOne = await all(`${base(o)}/conversations-issues?conversation=${byExt.get('Custom domai')}`);
    expect(ofOne.items.map((x: any) => x.issue.cluster)).toEqual([dom]);
    expect((await s.api('GET', `${base(o)}/conversations-clusters/${pw}`)).body).toEqual(clusters.items[0]);
    expect((await s.api('GET', `${base(o)}/conversations-clusters/nope`)).status).toBe(404);
    // Nothing is pending or being analysed here.
    expect((await all(`${base(o)}/conversations-clusters?status=pending`)).count).toBe(0);
  });

  it('splits a conversation that moves to another topic into two issues', async () => {
    const o = await newOrg(s);
    await ingest(
      {
        id: 'two',
        parts: [
          msg('Exporting a space to PDF cuts off wide tables in the generated PDF file.'),
          msg('still broken'),
          msg('Also, unrelated: how do I invite teammates with an editor role to our organization?'),
        ],
      },
      o,
    );
    const issues = (await all(`${base(o)}/conversations-issues`)).items.map((x: any) => x.issue);
    expect(issues.map((i: any) => i.title)).toEqual([
      'Exporting a space to PDF cuts off wide tables in the generated PDF file.',
      'Also, unrelated: how do I invite teammates with an editor role to our organization?',
    ]);
    expect(issues[0].summary).toContain('still broken'); // a short follow-up stays with its topic
    expect(issues[0].cluster).not.toBe(issues[1].cluster);
  });

  it('counts issues per week over the last 13 weeks by the clock, oldest first', async () => {
    const o = await newOrg(s);
    const text = 'Webhook deliveries to our endpoint fail with a signature verification error.';
    await ingest(
      [
        { id: 'w0', metadata: { createdAt: ago(1) }, parts: [msg(text)] },
        { id: 'w0b', metadata: { createdAt: ago(6) }, parts: [msg(text)] },
        { id: 'w2', metadata: { createdAt: ago(15) }, parts: [msg(text)] },
        { id: 'w12', metadata: { createdAt: ago(7 * 12 + 3) }, parts: [msg(text)] },
        { id: 'old', metadata: { createdAt: ago(7 * 13 + 1) }, parts: [msg(text)] },
      ],
      o,
    );
    const [cluster] = (await all(`${base(o)}/conversations-clusters`)).items;
    expect(cluster.stats.issues).toBe(5);
    expect(cluster.weeklyPulse).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 2]);
    clock.advance(7 * DAY); // a week later everything moves one week back; the oldest falls out
    expect((await s.api('GET', `${base(o)}/conversations-clusters/${cluster.id}`)).body.weeklyPulse).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 2, 0]);
  });

  it('lists conversations by source', async () => {
    const o = await newOrg(s);
    const admin2 = await addPerson(s, o, 'admin');
    await ingest({ id: 'a', parts: [msg('Sidebar navigation collapses unexpectedly on mobile devices.')] }, o);
    await ingest({ id: 'a', parts: [msg('Sidebar navigation collapses unexpectedly on tablets.')] }, o, admin2.token);
    const every = await all(`${base(o)}/conversations`);
    expect(every.count).toBe(2); // the same id from two sources: two conversations
    const mine = await all(`${base(o)}/conversations?source=integration:api:${admin2.id}`);
    expect(mine.count).toBe(1);
    expect(mine.items[0].source).toBe(`integration:api:${admin2.id}`);
    const [cluster] = (await all(`${base(o)}/conversations-clusters`)).items;
    expect(Object.keys(cluster.sources).sort()).toHaveLength(2);
  });

  it('requireCluster: a change request may name only a cluster of its organization', async () => {
    const o = await newOrg(s);
    await ingest({ id: 'x', parts: [msg('Broken images in the exported markdown files.')] }, o);
    const [cluster] = (await all(`${base(o)}/conversations-clusters`)).items;
    await s.ctx.store.read((tx) => {
      expect(requireCluster(tx, o, cluster.id).id).toBe(cluster.id);
      expect(() => requireCluster(tx, org, cluster.id)).toThrow(`conversationsIssuesCluster: no issues cluster ${cluster.id} in this organization`);
      expect(() => requireCluster(tx, o, 'missing')).toThrow(/conversationsIssuesCluster/);
    });
  });
});
