import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cycles, importGraph, type Edge } from './import-graph.js';

// The one rule of ARCHITECTURE.md, checked over the import graph of src/, server/ and commands/:
// each layer imports only layers below it, areas only areas below them, no file is part of a
// circle, and src/ knows nothing of HTTP serving, server/ or commands/.
//
// Type-only imports are exempt from the order (not from circles): they are erased at compile
// time, so they load nothing and cannot make an initialisation-order bug. They let an area name
// the record types of the rows it walks (tree/ describes spaces and collections) without
// depending on that area's code. A circle is refused whatever the imports are made of: files in
// a circle can be read, tested and moved only together.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The areas of src/, lowest first: an area may import the areas before it, never one after. */
const AREA_ORDER = [
  'documents',
  'users',
  'organizations',
  'tree',
  'collections',
  'spaces',
  'sites',
  'teams',
  'permissions',
  'saml',
  'conversations',
  'openapi',
  'content',
  'search',
  'change-requests',
  'comments',
  'auth',
  'members',
  'invites',
  'agent-instructions',
  'integrations',
  'translations',
  'pdf',
  'urls',
  'imports',
  'git',
  'ask',
  'agents',
  'computed',
  'audit',
  'styleguides',
  'site-context',
] as const;

/**
 * Reads of the rows of an area above, through its table handle (`src/<area>/tables.ts`), that
 * were there when tables became handles (issue 31): each is a debt to pay by moving the read
 * behind a function of the owning area or up to the operations layer. Only the handle module is
 * exempt, not the area's code, and a read not listed here fails the test.
 */
const KNOWN_ROW_READS: Record<string, string> = {
  'src/tree/access.ts → src/collections/tables.ts': 'the tree walks collections (parents of a space)',
  'src/tree/move.ts → src/collections/tables.ts': 'the tree moves collections and spaces',
  'src/tree/move.ts → src/spaces/tables.ts': 'the tree moves collections and spaces',
  'src/tree/order.ts → src/collections/tables.ts': 'the tree orders collections and spaces',
  'src/tree/order.ts → src/spaces/tables.ts': 'the tree orders collections and spaces',
  'src/tree/transfer.ts → src/sites/tables.ts': "a space's transfer to another organization unpublishes its site spaces",
  'src/collections/service.ts → src/spaces/tables.ts': 'deleting a collection deletes the spaces in it',
  'src/organizations/settings.ts → src/sites/tables.ts': "an organization's default content names a site",
  'src/organizations/settings.ts → src/saml/tables.ts': 'SSO settings depend on an active SAML provider',
  'src/teams/service.ts → src/saml/tables.ts': "a team that is a SAML provider's default team cannot be deleted",
  'src/change-requests/comment-counts.ts → src/comments/tables.ts': "a change request's count of open comments",
  'src/tree/grants.ts → src/teams/tables.ts': "a team's grant reaches its members: access reads who is in the team",
};

/** The layers, lowest first (ARCHITECTURE.md). */
const LAYERS = ['kernel', 'store', 'contract', 'areas', 'operations', 'adapters', 'server', 'commands'] as const;
type Layer = (typeof LAYERS)[number];

/** src/ files at the root that are not the operations layer. */
const ROOT_FILES: Record<string, Layer> = { 'src/open.ts': 'store' };

const graph = importGraph(ROOT);

interface Place {
  layer: Layer;
  area?: string;
}

function placeOf(file: string): Place {
  if (file.startsWith('server/')) return { layer: 'server' };
  if (file.startsWith('commands/')) return { layer: 'commands' };
  const top = file.split('/')[1]!;
  if (top === 'kernel' || top === 'store' || top === 'contract') return { layer: top };
  if (top === 'transport' || top === 'published' || top === 'mcp') return { layer: 'adapters' };
  if (top.endsWith('.ts')) return { layer: ROOT_FILES[file] ?? 'operations' };
  // A file declaring operations (the handlers by operationId) sits above every area.
  if (graph.declaresOperations.has(file)) return { layer: 'operations' };
  if (!(AREA_ORDER as readonly string[]).includes(top))
    throw new Error(`${file}: src/${top}/ is in no layer; add it to AREA_ORDER (test/architecture/layering.test.ts) and ARCHITECTURE.md`);
  return { layer: 'areas', area: top };
}

const rank = (p: Place) => LAYERS.indexOf(p.layer);
const describePlace = (p: Place) => (p.area ? `area ${p.area}` : `layer ${p.layer}`);
const ownFiles = new Set(graph.files);
const own = (e: Edge) => ownFiles.has(e.to);
const where = (e: Edge) => `${e.from}:${e.line} imports ${e.to}`;

/** Why an edge breaks the order, or undefined. */
function violation(e: Edge): string | undefined {
  if (!own(e) || e.typeOnly) return undefined;
  const from = placeOf(e.from);
  const to = placeOf(e.to);
  if (rank(to) > rank(from)) return `${where(e)}: ${describePlace(from)} may not import ${describePlace(to)}, a layer above it (order: ${LAYERS.join(' < ')})`;
  if (from.layer === 'areas' && to.layer === 'areas' && from.area !== to.area) {
    const a = AREA_ORDER.indexOf(from.area as never);
    const b = AREA_ORDER.indexOf(to.area as never);
    if (b > a && KNOWN_ROW_READS[`${e.from} → ${e.to}`] === undefined)
      return `${where(e)}: area ${from.area} may not import area ${to.area}, which comes after it (areas, lowest first: ${AREA_ORDER.join(', ')})`;
  }
  return undefined;
}

/** src/ knows nothing of HTTP serving nor of its callers; type-only imports included (a request type is HTTP knowledge). */
function srcBoundary(e: Edge): string | undefined {
  if (!e.from.startsWith('src/')) return undefined;
  if (/^(node:)?(http|https|http2)$/.test(e.to) || e.to.startsWith('server/') || e.to.startsWith('commands/'))
    return `${where(e)}: src/ never imports node:http(s), server/ or commands/ (HTTP handling lives in server/)`;
  return undefined;
}

describe('layering (ARCHITECTURE.md)', () => {
  it('reads the whole graph', () => {
    expect(graph.files.length).toBeGreaterThan(300);
    expect(graph.edges.filter((e) => e.dynamic && own(e)).length).toBeGreaterThan(10);
    for (const f of graph.files) placeOf(f); // every file has a place
  });

  it('has no circle of files', () => {
    const found = cycles(graph.files, graph.edges).map((loop) => `circle: ${loop.join(' → ')}`);
    expect(found).toEqual([]);
  });

  it('imports only downwards: layers, and areas among themselves', () => {
    const found = graph.edges.map(violation).filter((v): v is string => v !== undefined);
    expect(found).toEqual([]);
  });

  it('keeps HTTP serving, server/ and commands/ out of src/', () => {
    const found = graph.edges.map(srcBoundary).filter((v): v is string => v !== undefined);
    expect(found).toEqual([]);
  });

  it('lists only row reads that still exist', () => {
    const reads = new Set(graph.edges.filter((e) => !e.typeOnly).map((e) => `${e.from} → ${e.to}`));
    expect(Object.keys(KNOWN_ROW_READS).filter((k) => !reads.has(k))).toEqual([]);
  });

  it('names the files and the rule of a violation', () => {
    const up = violation({ from: 'src/spaces/service.ts', to: 'src/sites/service.ts', line: 3, typeOnly: false, dynamic: false });
    expect(up).toMatch(/^src\/spaces\/service\.ts:3 imports src\/sites\/service\.ts: area spaces may not import area sites, which comes after it/);
    expect(violation({ from: 'src/spaces/service.ts', to: 'src/sites/service.ts', line: 3, typeOnly: true, dynamic: false })).toBeUndefined();
    // Reading the rows of an area above is importing its table handle: a violation unless listed.
    expect(violation(edge('src/spaces/service.ts', 'src/sites/tables.ts'))).toMatch(/area spaces may not import area sites/);
    expect(violation(edge('src/tree/order.ts', 'src/spaces/tables.ts'))).toBeUndefined();
    expect(violation({ from: 'src/kernel/errors.ts', to: 'src/invoke.ts', line: 1, typeOnly: false, dynamic: true })).toMatch(
      /layer kernel may not import layer operations/,
    );
    expect(srcBoundary({ from: 'src/published/http.ts', to: 'node:http', line: 1, typeOnly: true, dynamic: false })).toMatch(
      /^src\/published\/http\.ts:1 imports node:http: src\/ never imports/,
    );
    expect(srcBoundary({ from: 'src/invoke.ts', to: 'server/app.ts', line: 2, typeOnly: false, dynamic: true })).toMatch(/src\/ never imports/);
    expect(srcBoundary({ from: 'server/app.ts', to: 'node:http', line: 1, typeOnly: false, dynamic: false })).toBeUndefined();
    expect(cycles(['a', 'b', 'c'], [edge('a', 'b'), edge('b', 'c'), edge('c', 'a')])).toEqual([['a', 'b', 'c', 'a']]);
  });
});

const edge = (from: string, to: string): Edge => ({ from, to, line: 1, typeOnly: false, dynamic: false });
