import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { addPerson, newOrg } from './people.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.stop());

const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read', null] as const;
const ok = (status: number) => status >= 200 && status < 300;

// For every role, each `permissions` boolean is compared with what that caller can really do.
describe('permissions agree with what each role can do', () => {
  for (const role of ROLES) {
    it(`role ${role ?? 'guest'}`, async () => {
      const org = await newOrg(s);
      const p = await addPerson(s, org, role);
      const other = await addPerson(s, org, 'read');
      const as = { token: p.token };

      const orgView = await s.api('GET', `/v1/orgs/${org}`, as);
      expect(orgView.status).toBe(200);
      const perms = orgView.body.permissions;
      expect(perms.view).toBe(true);
      expect(perms.admin).toBe(ok((await s.api('PATCH', `/v1/orgs/${org}`, { ...as, body: { ai: false } })).status));
      expect(perms.listMembers).toBe(ok((await s.api('GET', `/v1/orgs/${org}/members`, as)).status));
      expect(perms.listTeams).toBe(ok((await s.api('GET', `/v1/orgs/${org}/teams`, as)).status));
      const created = await s.api('PUT', `/v1/orgs/${org}/teams`, { ...as, body: { title: 'Made by ' + (role ?? 'guest') } });
      expect(perms.ownTeam).toBe(ok(created.status));

      // A team made by the owner, with this person in it as a plain member.
      const team = (await s.api('PUT', `/v1/orgs/${org}/teams`, { body: { title: 'Shared', members: [p.id, other.id] } })).body.id;
      const t = await s.api('GET', `/v1/orgs/${org}/teams/${team}`, as);
      expect(t.status).toBe(200); // every member of a team sees it
      expect(t.body.permissions.view).toBe(true);
      expect(t.body.permissions.admin).toBe(ok((await s.api('PATCH', `/v1/orgs/${org}/teams/${team}`, { ...as, body: { title: 'Shared' } })).status));
      // A team this person is not in.
      const apart = (await s.api('PUT', `/v1/orgs/${org}/teams`, { body: { title: 'Apart' } })).body.id;
      const a = await s.api('GET', `/v1/orgs/${org}/teams/${apart}`, as);
      const viewApart = ok(a.status);
      if (viewApart)
        expect(a.body.permissions.admin).toBe(ok((await s.api('PATCH', `/v1/orgs/${org}/teams/${apart}`, { ...as, body: { title: 'Apart' } })).status));
      expect(viewApart).toBe(role !== null);

      // Team member entries: `view` says whether that member can be read.
      const entries = (await s.api('GET', `/v1/orgs/${org}/teams/${team}/members`, as)).body.items;
      for (const e of entries) {
        expect(e.permissions.view, `view ${e.organization.id}`).toBe(ok((await s.api('GET', `/v1/orgs/${org}/members/${e.organization.id}`, as)).status));
      }
      // Invite links: `redundant` says whether joining with the link would change the caller's role.
      const link = (await s.api('POST', `/v1/orgs/${org}/link-invites`, { body: { role: 'review' } })).body.id;
      const seen = (await s.api('GET', `/v1/orgs/${org}/link-invites/${link}`, as)).body.redundant;
      await s.api('POST', `/v1/orgs/${org}/invites/${link}`, as);
      const after = (await s.api('GET', `/v1/orgs/${org}/members/${p.id}`, as)).body.role;
      expect(seen).toBe(after === role);
    });
  }
});
