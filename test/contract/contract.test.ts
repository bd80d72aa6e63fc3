import { describe, expect, it } from 'vitest';
import { Router } from '../../src/contract/router.js';
import { contractRoutes, operationSpec } from '../../src/contract/spec.js';
import { validateInput } from '../../src/contract/validate.js';

describe('contract lookup', () => {
  it('answers method, path, parameters and schemas by operationId from 0.146.0', () => {
    const op = operationSpec('getOrganizationById');
    expect(op).toMatchObject({ method: 'GET', path: '/orgs/{organizationId}', source: '@gitbook/api@0.146.0' });
    expect(op.parameters.find((p) => p.name === 'organizationId')).toMatchObject({ in: 'path', required: true });
    expect(op.responses['200']!.schema).toEqual({ $ref: '#/components/schemas/Organization' });
    expect(op.components.schemas.Organization).toBeDefined();
  });

  it('takes createOrganization and updateChangeRequestContent from the latest spec', () => {
    expect(operationSpec('createOrganization')).toMatchObject({ method: 'POST', path: '/orgs', dialect: '2020-12' });
    expect(operationSpec('createOrganization').source).not.toBe('@gitbook/api@0.146.0');
    expect(operationSpec('updateChangeRequestContent')).toMatchObject({ method: 'POST', path: '/spaces/{spaceId}/change-requests/{changeRequestId}/content' });
  });

  it('indexes every operation of the pinned spec (309) plus the 92 taken from the latest (scripts/build-contract.mjs FROM_LATEST)', () => {
    expect(contractRoutes()).toHaveLength(401);
  });

  it('throws for an unknown operation', () => {
    expect(() => operationSpec('noSuchOperation')).toThrow(/not in the contract/);
  });
});

describe('input validation', () => {
  const create = operationSpec('createOrganization');
  it('names the field and the rule', () => {
    expect(() => validateInput(create, { body: { title: 'x' } })).toThrow('body.title: must NOT have fewer than 2 characters');
    expect(() => validateInput(create, { body: { title: 'x'.repeat(256) } })).toThrow('body.title: must NOT have more than 255 characters');
    expect(() => validateInput(create, { body: {} })).toThrow('body.title: is required');
    expect(() => validateInput(create, {})).toThrow('body: is required');
    expect(() => validateInput(create, { body: { title: 5 } })).toThrow('body.title: must be string');
  });

  it('coerces query strings to their declared types', () => {
    const list = operationSpec('listOrganizationsForAuthenticatedUser');
    expect(validateInput(list, { query: { limit: '20' } }).query).toEqual({ limit: 20 });
    expect(() => validateInput(list, { query: { limit: 'ten' } })).toThrow(/query.limit: must be number/);
    expect(() => validateInput(list, { query: { limit: '5000' } })).toThrow(/query.limit: must be <= 1000/);
  });

  it('coerces boolean query parameters and refuses non-booleans', () => {
    expect(validateInput(create, { query: { withDefaultSite: 'false' }, body: { title: 'ok' } }).query).toEqual({ withDefaultSite: false });
    expect(() => validateInput(create, { query: { withDefaultSite: 'maybe' }, body: { title: 'ok' } })).toThrow(/query.withDefaultSite: must be boolean/);
  });

  it('refuses a body on an operation that takes none', () => {
    expect(() => validateInput(operationSpec('getAuthenticatedUser'), { body: { a: 1 } })).toThrow(/takes no request body/);
  });
});

describe('router', () => {
  const router = new Router(['getOrganizationById', 'listOrganizationsForAuthenticatedUser', 'createOrganization', 'getAuthenticatedUser']);
  it('matches registered operations and decodes path parameters', () => {
    expect(router.match('GET', '/orgs/a%20b')).toEqual({ operationId: 'getOrganizationById', path: { organizationId: 'a b' } });
    expect(router.match('POST', '/orgs').operationId).toBe('createOrganization');
  });
  it('answers 404 for a path in neither spec, 501 naming the operation for one not served, 405 for a wrong method', () => {
    expect(() => router.match('GET', '/nope')).toThrow(expect.objectContaining({ kind: 'not_found' }));
    expect(() => router.match('GET', '/orgs/x/nope')).toThrow(expect.objectContaining({ kind: 'not_found' }));
    // In the pinned spec, not registered in this router.
    expect(() => router.match('GET', '/orgs/x/members')).toThrow(
      expect.objectContaining({
        kind: 'not_implemented',
        message: expect.stringMatching(/^listMembersInOrganizationById \(GET \/v1\/orgs\/x\/members\) is an operation/),
      }),
    );
    // Only in the newest spec.
    expect(() => router.match('POST', '/user/notifications/token')).toThrow(
      expect.objectContaining({ kind: 'not_implemented', message: expect.stringContaining('createUserNotificationsToken') }),
    );
    expect(() => router.match('DELETE', '/orgs')).toThrow(expect.objectContaining({ kind: 'method_not_allowed' }));
  });
  it('a page path takes the rest of the path, its slashes encoded or not', () => {
    const pages = new Router(['getPageByPath', 'getPageInRevisionByPath', 'getPageInChangeRequestByPath', 'getSpaceById']);
    for (const p of ['guide/setup', 'guide%2Fsetup', 'guide/setup%20notes/x']) {
      expect(pages.match('GET', `/spaces/s1/content/path/${p}`)).toEqual({
        operationId: 'getPageByPath',
        path: { spaceId: 's1', pagePath: decodeURIComponent(p) },
      });
    }
    expect(pages.match('GET', '/spaces/s1/revisions/r1/path/a/b')).toEqual({
      operationId: 'getPageInRevisionByPath',
      path: { spaceId: 's1', revisionId: 'r1', pagePath: 'a/b' },
    });
    expect(pages.match('GET', '/spaces/s1/change-requests/c1/content/path/a/b/c')).toEqual({
      operationId: 'getPageInChangeRequestByPath',
      path: { spaceId: 's1', changeRequestId: 'c1', pagePath: 'a/b/c' },
    });
    // Static routes still win where they exist: a space's own sub-resources are not page paths.
    expect(pages.match('GET', '/spaces/s1').operationId).toBe('getSpaceById');
  });
  it('refuses bad percent-encoding as invalid input', () => {
    expect(() => router.match('GET', '/orgs/%E0%A4%A')).toThrow(expect.objectContaining({ kind: 'invalid' }));
  });
});

describe('spec formats', () => {
  it('accepts emoji characters and codepoints, icon names; refuses other text', async () => {
    const { validateInput: v } = await import('../../src/contract/validate.js');
    const op = operationSpec('createSpace');
    for (const ok of ['🎉', '1f389', '👩‍💻', '1f468-200d-1f469'])
      expect(() => v(op, { path: { organizationId: 'o' }, body: { title: 't', emoji: ok } }), ok).not.toThrow();
    for (const bad of ['hello', '<script>', '🎉x'])
      expect(() => v(op, { path: { organizationId: 'o' }, body: { title: 't', emoji: bad } }), bad).toThrow(/body.emoji: must match format "emoji"/);
  });
});

describe('unknown body fields', () => {
  it('are refused on plain object bodies, naming the field and the accepted ones', () => {
    const op = operationSpec('updateOrganizationById');
    expect(() => validateInput(op, { path: { organizationId: 'o' }, body: { titel: 'typo' } })).toThrow(
      /^body\.titel: is not an accepted field \(accepted: .*title/,
    );
  });
});

describe('open bodies', () => {
  const op = () => operationSpec('createChangeRequest');
  const path = { spaceId: 's' };
  it("accept unknown fields where the operation says '*' (API.md: other properties allowed)", () => {
    expect(() => validateInput(op(), { path, body: { subject: 'x', origin: 'ci' } })).toThrow(/^body\.origin: is not an accepted field/);
    expect(validateInput(op(), { path, body: { subject: 'x', origin: 'ci' } }, ['*']).body).toEqual({ subject: 'x', origin: 'ci' });
  });
  it('still refuse a body nested deeper than 128 levels, without overflowing the stack', () => {
    const deep = (n: number) => JSON.parse('{"a":'.repeat(n) + '1' + '}'.repeat(n));
    expect((validateInput(op(), { path, body: { subject: 'x', a: deep(120) } }, ['*']).body as { subject: string }).subject).toBe('x');
    expect(() => validateInput(op(), { path, body: deep(2000) }, ['*'])).toThrow('body: nested deeper than 128 levels');
    expect(() => validateInput(op(), { path, body: deep(100000) }, ['*'])).toThrow('body: nested deeper than 128 levels');
  });
});
