import { expect } from 'vitest';
import { insertToken } from '../../src/auth/tokens.js';
import type { TestServer } from '../helpers/server.js';
import { Users } from '../../src/users/tables.js';

export interface Person {
  id: string;
  email: string;
  token: string;
}

let n = 0;

/**
 * A new person in organization `org` with `role` (null = guest), added through the API (an invite
 * by email, as the owner); the token is put in the store, since no operation issues user tokens.
 */
export async function addPerson(s: TestServer, org: string, role: string | null, name = `person${++n}`): Promise<Person> {
  const email = `${name}@example.com`;
  const r = await s.api('POST', `/v1/orgs/${org}/invites`, { body: { emails: [{ email, role }] } });
  expect(r.status).toBe(200);
  const id = r.body.users[0];
  const token = `gb_api_${name}_${id}`;
  await s.ctx.store.write((tx) => insertToken(tx, token, id, 'test', new Date()));
  return { id, email, token };
}

/** A user with a token who belongs to no organization of the test. */
export async function outsider(s: TestServer, name = `outsider${++n}`, email = `${name}@elsewhere.test`): Promise<Person> {
  const id = `u_${name}`;
  const token = `gb_api_${name}`;
  await s.ctx.store.write((tx) => {
    tx.put(Users, { id, displayName: name, email, createdAt: new Date().toISOString() });
    insertToken(tx, token, id, 'test', new Date());
  });
  return { id, email, token };
}

/** A fresh organization owned by the test token's user. */
export async function newOrg(s: TestServer, title = 'Org ' + ++n): Promise<string> {
  const r = await s.api('POST', '/v1/orgs', { body: { title } });
  expect(r.status).toBe(201);
  return r.body.id;
}
