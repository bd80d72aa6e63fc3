import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { addPerson, newOrg } from './people.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.stop());

const doc = {
  object: 'document',
  data: { schemaVersion: 1 },
  nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Answer in English.', marks: [] }] }] }],
};

describe('agent instructions', () => {
  it('starts empty, is written by admins with updatedAt/updatedBy, read by members', async () => {
    const org = await newOrg(s);
    const me = (await s.api('GET', '/v1/user')).body.id;
    const created = (await s.api('GET', `/v1/orgs/${org}`)).body.createdAt;
    const empty = await s.api('GET', `/v1/orgs/${org}/agent-instructions`);
    expect(empty.body).toEqual({
      object: 'agent-instructions',
      instructions: { object: 'document', data: {}, nodes: [] },
      updatedAt: created,
      updatedBy: me,
      urls: { location: `${s.url}/v1/orgs/${org}/agent-instructions` },
    });
    const second = await addPerson(s, org, 'admin');
    const put = await s.api('PUT', `/v1/orgs/${org}/agent-instructions`, { token: second.token, body: { instructions: doc } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ instructions: doc, updatedBy: second.id });
    expect(Date.parse(put.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created));
    const reader = await addPerson(s, org, 'read');
    expect((await s.api('GET', `/v1/orgs/${org}/agent-instructions`, { token: reader.token })).body).toEqual(put.body);
  });

  it('refuses non-admin writers (403), guest readers (403) and documents off the contract (400)', async () => {
    const org = await newOrg(s);
    const editor = await addPerson(s, org, 'create');
    const guest = await addPerson(s, org, null);
    const denied = await s.api('PUT', `/v1/orgs/${org}/agent-instructions`, { token: editor.token, body: { instructions: doc } });
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toBe('changing the agent instructions needs the admin role in this organization (you have create)');
    expect((await s.api('GET', `/v1/orgs/${org}/agent-instructions`, { token: guest.token })).status).toBe(403);
    const bad = await s.api('PUT', `/v1/orgs/${org}/agent-instructions`, { body: { instructions: { object: 'document', nodes: [] } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('body.instructions.data: is required');
    expect((await s.api('PUT', `/v1/orgs/${org}/agent-instructions`, { body: {} })).body.error.message).toBe('body.instructions: is required');
    expect((await s.api('GET', `/v1/orgs/${org}/agent-instructions`)).body.instructions.nodes).toEqual([]);
  });
});
