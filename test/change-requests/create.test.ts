import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markdownToDocument } from '../../src/documents/markdown.js';
import { startServer, type TestServer } from '../helpers/server.js';

// Creating a change request with what API.md's create body takes beyond the pinned schema:
// a `description` (Document), a `template` that fills its first revision, other properties.

let s: TestServer;
let org: string;
beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
});
afterAll(() => s.stop());

const newSpace = async () => (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Docs' } })).body.id as string;
const create = (space: string, body: object) => s.api('POST', `/v1/spaces/${space}/change-requests`, { body });
const crCount = async (space: string) => (await s.api('GET', `/v1/spaces/${space}`)).body.changeRequests;

describe('create change request', () => {
  it('stores a description Document and answers it; a malformed one is a 400 that creates nothing', async () => {
    const space = await newSpace();
    const description = await markdownToDocument('Why **this** change');
    const r = await create(space, { subject: 'With a why', description });
    expect(r.status).toBe(201);
    expect(r.body.description).toEqual(description);
    expect((await s.api('GET', `/v1/spaces/${space}/change-requests/${r.body.number}`)).body.description).toEqual(description);
    const bad = await create(space, { subject: 'Bad', description: 'plain text' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^body\.description: /);
    expect(await crCount(space)).toBe(1);
  });

  it('fills the change request from a template, leaving the space as it was', async () => {
    const space = await newSpace();
    const before = (await s.api('GET', `/v1/spaces/${space}/content/pages`)).body.pages;
    const r = await create(space, { subject: 'Start', template: { id: 'getting-started' } });
    expect(r.status).toBe(201);
    expect(r.body.revision).not.toBe(r.body.revisionInitial);
    const pages = (await s.api('GET', `/v1/spaces/${space}/change-requests/${r.body.id}/content/pages`)).body.pages;
    expect(pages.length).toBeGreaterThan(before.length);
    expect((await s.api('GET', `/v1/spaces/${space}/content/pages`)).body.pages).toEqual(before);
    // The creator authored that revision: a contributor.
    const mine = await s.api('GET', `/v1/spaces/${space}/change-requests?contributor=${r.body.createdBy.id}`);
    expect(mine.body.items.map((x: any) => x.id)).toEqual([r.body.id]);
  });

  it('refuses a template that does not exist or has the wrong shape, creating nothing', async () => {
    const space = await newSpace();
    const missing = await create(space, { subject: 'x', template: { id: 'nope' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/no template nope/);
    const shape = await create(space, { subject: 'x', template: { params: {} } });
    expect(shape.status).toBe(400);
    expect(shape.body.error.message).toBe('body.template.id: is required');
    expect(await crCount(space)).toBe(0);
  });

  it('allows other properties (API.md) and ignores them', async () => {
    const space = await newSpace();
    const r = await create(space, { subject: 'Extra', agentTaskId: 'task-1', origin: 'ci' });
    expect(r.status).toBe(201);
    expect(r.body).not.toHaveProperty('origin');
  });
});
