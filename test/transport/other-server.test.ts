import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { soleOrganization } from '../../commands/_lib/org.js';
import { collectPages, MAX_PAGES } from '../../commands/_lib/pages.js';
import { errorMessage } from '../../src/transport/http.js';
import type { Transport } from '../../src/transport/types.js';
import { docs } from '../helpers/cli.js';
import { withServer } from '../helpers/loopback.js';

// What the CLI must not assume of a server beyond the contract: a cursor that ends, `count`, the
// markdown form of a body, errors in the contract's shape. Tiny loopback servers answer as another
// implementation may (spec-valid, or a buggy cursor).

const run = (args: string[]) => docs(args);

const json = (res: ServerResponse, body: unknown, status = 200) => {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(body));
};

describe('pagination against a server whose cursor never ends', () => {
  it('collectPages stops after MAX_PAGES distinct cursors instead of following them forever', async () => {
    let calls = 0;
    const fetch = async (page: string) => {
      calls++;
      return { items: [{ id: page }], next: { page: `p${calls + 1}` } };
    };
    await expect(collectPages({ items: [{ id: 'p0' }], next: { page: 'p1' } }, fetch)).rejects.toThrow(
      `more than ${MAX_PAGES} pages: stopped after ${MAX_PAGES + 1} items`,
    );
    expect(calls).toBe(MAX_PAGES);
  });

  it('docs links (which reads every page) stops on a repeating next.page: exit 1, a few calls', async () => {
    let calls = 0;
    await withServer(
      (_req, res) => {
        calls++;
        json(res, { items: [], stats: { total: 0, broken: { total: 0 } }, next: { page: 'again' } });
      },
      async (url) => {
        const r = await run(['links', 's1', '--api-url', url, '--token', 't']);
        expect(r.stderr).toContain("the server's next.page repeats (again)");
        expect(r.status).toBe(1);
        expect(calls).toBeLessThan(5);
      },
    );
  });
});

describe('answers the contract allows that docs serve does not give', () => {
  it('comments get prints a Document body as text when the server ignores format=markdown', async () => {
    const body = {
      document: {
        object: 'document',
        data: {},
        nodes: [
          { object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'The token step is missing.', marks: [] }] }] },
        ],
      },
    };
    await withServer(
      (_req, res) =>
        json(res, {
          object: 'comment',
          id: 'c1',
          status: 'open',
          postedAt: '2026-01-01T00:00:00.000Z',
          postedBy: { displayName: 'Ann' },
          target: {},
          reactions: [],
          replies: 0,
          body,
        }),
      async (url) => {
        const r = await run(['comments', 'get', 's1', 'c1', '--api-url', url, '--token', 't']);
        expect(r.status, r.stderr).toBe(0);
        expect(r.stdout).toContain('The token step is missing.');
        expect(r.stdout).not.toMatch(/undefined|"object"/);
      },
    );
  });

  it('links names every kind of location (a file, a URL, a space), not only pages', async () => {
    await withServer(
      (_req, res) =>
        json(res, {
          items: [
            {
              status: 'broken',
              relation: 'link',
              targetReference: { kind: 'file', file: { id: 'f1', name: 'logo.png' } },
              locationReferences: [{ kind: 'space', space: { id: 'sp1', title: 'Guides' } }],
            },
            {
              status: 'ok',
              relation: 'link',
              targetReference: { kind: 'url', url: 'https://acme.com' },
              locationReferences: [{ kind: 'page', page: { id: 'p1', path: 'intro' } }],
            },
          ],
          stats: { total: 2, broken: { total: 1 } },
        }),
      async (url) => {
        const r = await run(['links', 's1', '--api-url', url, '--token', 't']);
        expect(r.status, r.stderr).toBe(0);
        expect(r.stdout).toContain('file logo.png');
        expect(r.stdout).toContain('space Guides');
        expect(r.stdout).toContain('<- intro');
        expect(r.stdout).not.toContain('undefined');
      },
    );
  });

  it('the sole organization is found without `count` (optional in the contract)', async () => {
    const answering = (body: unknown) => ({ call: async () => ({ status: 200, body, headers: {} }) }) as unknown as Transport;
    expect(await soleOrganization(answering({ items: [{ id: 'o1' }] }))).toBe('o1');
    await expect(soleOrganization(answering({ items: [{ id: 'o1' }], next: { page: 'x' } }))).rejects.toThrow('you belong to 2 or more organizations');
    await expect(soleOrganization(answering({ items: [{ id: 'o1' }, { id: 'o2' }], count: 2 }))).rejects.toThrow('you belong to 2 organizations');
  });

  it('an error in another shape (RFC 9457 problem, as Prism answers) keeps its words', () => {
    expect(errorMessage(400, { error: { code: 400, message: 'title: too long' } })).toBe('title: too long');
    const problem = {
      type: 'x',
      title: 'Invalid request',
      status: 422,
      detail: 'Your request is not valid',
      validation: [{ message: "body must have required property 'data'" }],
    };
    expect(errorMessage(422, problem)).toBe("HTTP 422: Invalid request: Your request is not valid: body must have required property 'data'");
    expect(errorMessage(502, 'Bad gateway')).toBe('HTTP 502: Bad gateway');
    expect(errorMessage(500, undefined)).toBe('HTTP 500');
  });
});
