import { describe, expect, it } from 'vitest';
import { adminProviders, type Call } from '../../src/mcp/admin.js';

// The MCP server's page resources list the caller's spaces through every page of two lists; a
// server (docs mcp --api-url: any server of the contract) whose next.page repeats is stopped with
// a named error, through the same follower as the CLI's --all (src/transport/follow-pages.ts).
describe('docs mcp resource list over a paginated server', () => {
  const org = { object: 'organization', id: 'o1', title: 'Acme' };

  it('follows next.page to the end', async () => {
    const calls: string[] = [];
    const call: Call = async (operationId, input) => {
      calls.push(`${operationId} ${input?.query?.page ?? ''}`.trim());
      if (operationId === 'listOrganizationsForAuthenticatedUser') return { status: 200, headers: {}, body: { items: [org] } };
      if (operationId === 'listSpacesInOrganizationById') {
        const second = input?.query?.page === 'p2';
        return {
          status: 200,
          headers: {},
          body: second ? { items: [{ id: 's2', title: 'Two' }] } : { items: [{ id: 's1', title: 'One' }], next: { page: 'p2' } },
        };
      }
      return {
        status: 200,
        headers: {},
        body: { pages: [{ id: `page-of-${input?.path?.spaceId}`, type: 'document', title: 'Intro', path: 'intro', pages: [] }] },
      };
    };
    const list = await adminProviders(call, {}, 'test').resources!.list(undefined);
    expect(list.resources.map((r) => r.uri)).toEqual(['docs://spaces/s1/pages/page-of-s1', 'docs://spaces/s2/pages/page-of-s2']);
    expect(calls).toContain('listSpacesInOrganizationById p2');
  });

  it('stops a cursor that repeats, naming it', async () => {
    let n = 0;
    const call: Call = async () => (n++, { status: 200, headers: {}, body: { items: [org], next: { page: 'same' } } });
    await expect(adminProviders(call, {}, 'test').resources!.list(undefined)).rejects.toThrow(
      "the server's next.page repeats (same): stopped after 2 items instead of looping",
    );
    expect(n).toBe(2);
  });
});
