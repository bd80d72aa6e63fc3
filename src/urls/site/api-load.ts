import type { PageNode } from '../../content/model.js';
import { markdownOf } from '../../content/revisions.js';
import type { Context } from '../../kernel/context.js';
import { readContent } from '../../openapi/content-files.js';
import { onVersion } from '../../openapi/processor.js';
import type { OpenAPIVersionRecord } from '../../openapi/model.js';
import { findSpec } from '../../openapi/service.js';
import type { SpaceRecord } from '../../spaces/model.js';
import type { ReadTx } from '../../store/port.js';
import { operationRefs, type OperationRef } from '../../documents/openapi-blocks.js';
import { buildSpec, type ApiOperation, type ApiSpec, type ApiTag } from './api-spec.js';
import { OpenapiSpecs, OpenapiVersions } from '../../openapi/tables.js';

// API references on a published site. A document page whose markdown has the line
//   {% openapi-reference spec="<slug>" %}
// is the reference of the organization's OpenAPI spec <slug> (this server's stand-in for
// GitBook's computed `builtin:openapi` page, whose `computedSource` it does not store): the site
// draws it as the spec's overview and generates under it one page per tag and, under each tag,
// one page per operation (`<page>/<tag>/<operation>`). It follows the spec's latest processed
// version: the tree is rebuilt when `lastVersion` changes. The spec's documents are read from
// their file (async) and indexed once per version; a request's read (sync) finds them loaded
// or names the versions to load first (`missingApis`).

export const REFERENCE_LINE = /^ {0,3}\{%\s*openapi-reference\s+spec="([a-z0-9]+(?:-[a-z0-9]+)*)"\s*%\}[ \t]*$/m;

export interface ApiPage {
  kind: 'root' | 'tag' | 'op';
  spec: ApiSpec;
  /** The spec's slug and version (for `.md`, caches and the page signature). */
  slug: string;
  version: string;
  tag?: ApiTag;
  op?: ApiOperation;
}

interface Ref {
  pageId: string;
  slug: string;
}

// What each page body refers to, by body hash (bodies are immutable): scanned once per body. A
// reference line makes the page a reference; `openapi-operation` blocks (inline operations,
// ./inline.ts) name specs the page draws from.
interface Scan {
  reference: string | null;
  /** The inline operation blocks, and the specs they name. */
  ops: OperationRef[];
  inline: string[];
}
const scanned = new Map<string, Scan>();
const SCANNED_MAX = 50_000;
const NONE: Scan = { reference: null, ops: [], inline: [] };

interface Refs {
  refs: Ref[];
  /** The specs inline operation blocks of the tree name. */
  inline: string[];
}

/** What a document page's body refers to (read once per body). */
function scanOf(tx: ReadTx, spaceId: string, p: PageNode): Scan {
  if (p.type !== 'document' || !p.content) return NONE;
  const key = `${spaceId}:${p.content}`;
  let scan = scanned.get(key);
  if (scan === undefined) {
    const md = markdownOf(tx, spaceId, p);
    const reference = md.includes('openapi-reference') ? (REFERENCE_LINE.exec(md)?.[1] ?? null) : null;
    const ops = md.includes('openapi-operation') ? operationRefs(md) : [];
    scan = reference || ops.length ? { reference, ops, inline: [...new Set(ops.map((r) => r.spec))] } : NONE;
    if (scanned.size >= SCANNED_MAX) scanned.delete(scanned.keys().next().value!);
    scanned.set(key, scan);
  }
  return scan;
}

/** The inline operation blocks of a page's own body (includes of reusable content aside). */
export const inlineRefsOf = (tx: ReadTx, spaceId: string, p: PageNode): OperationRef[] => scanOf(tx, spaceId, p).ops;

function refsIn(tx: ReadTx, spaceId: string, tree: readonly PageNode[]): Refs {
  const out: Ref[] = [];
  const inline = new Set<string>();
  const walk = (pages: readonly PageNode[]) => {
    for (const p of pages) {
      const scan = scanOf(tx, spaceId, p);
      if (scan.reference) out.push({ pageId: p.id, slug: scan.reference });
      for (const s of scan.inline) inline.add(s);
      walk(p.pages);
    }
  };
  walk(tree);
  return { refs: out, inline: [...inline] };
}

const refsByTree = new WeakMap<readonly PageNode[], Refs>();
function refsOf(tx: ReadTx, spaceId: string, tree: readonly PageNode[]): Refs {
  let r = refsByTree.get(tree);
  if (!r) refsByTree.set(tree, (r = refsIn(tx, spaceId, tree)));
  return r;
}

// Loaded specs by version id (version ids are never reused); the least recently used leave first.
const loaded = new Map<string, ApiSpec | null>();
const LOADED_MAX = 8;

function remember(version: string, spec: ApiSpec | null) {
  loaded.delete(version);
  if (loaded.size >= LOADED_MAX) loaded.delete(loaded.keys().next().value!);
  loaded.set(version, spec);
}

export interface Needed {
  specId: string;
  version: OpenAPIVersionRecord;
}

/** The latest processed version of the organization's spec `slug` (none: no such spec, or no version yet). */
function latestVersion(tx: ReadTx, organization: string, slug: string): OpenAPIVersionRecord | undefined {
  // Only a spec of the space's own organization.
  const spec = findSpec(tx, organization, slug);
  const v = spec?.lastVersion ? tx.get(OpenapiVersions, spec.lastVersion) : undefined;
  return v && v.spec === spec!.id ? v : undefined;
}

/** Whether the organization has an OpenAPI spec (without one, no page of its spaces draws an API). */
export const hasSpecs = (tx: ReadTx, organization: string) => tx.find(OpenapiSpecs, 'organization', organization).length > 0;

const NO_REFS: Refs = { refs: [], inline: [] };

// The last answer, for the same read and tree: a request asks four times (apisToLoad, spacePages).
let last: { tx: ReadTx; tree: readonly PageNode[]; refs: Refs } | undefined;

/** The tree's references and inline specs: scanned once per tree (a request finds them in the WeakMap). */
function refsFor(tx: ReadTx, space: SpaceRecord, tree: readonly PageNode[]): Refs {
  if (last?.tx === tx && last.tree === tree) return last.refs;
  let refs = refsByTree.get(tree);
  // An organization without specs has no reference to draw: its pages' bodies are not scanned
  // (nor is that kept: a spec put later draws them).
  if (!refs) refs = hasSpecs(tx, space.organization) ? refsOf(tx, space.id, tree) : NO_REFS;
  last = { tx, tree, refs };
  return refs;
}

/** The latest version of each reference of a space's tree (a spec with no version yet: none). */
function versionsOf(tx: ReadTx, space: SpaceRecord, tree: readonly PageNode[]) {
  const out: { ref: Ref; version: OpenAPIVersionRecord }[] = [];
  for (const ref of refsFor(tx, space, tree).refs) {
    const v = latestVersion(tx, space.organization, ref.slug);
    if (v) out.push({ ref, version: v });
  }
  return out;
}

/** The latest versions of the specs the tree's inline operation blocks name. */
function inlineVersionsOf(tx: ReadTx, space: SpaceRecord, tree: readonly PageNode[]): OpenAPIVersionRecord[] {
  return refsFor(tx, space, tree).inline.flatMap((slug) => latestVersion(tx, space.organization, slug) ?? []);
}

/** The versions the references and inline operations of these spaces need that are not loaded yet. */
export function missingApis(tx: ReadTx, spaces: { space: SpaceRecord; tree: readonly PageNode[] }[]): Needed[] {
  const out: Needed[] = [];
  for (const { space, tree } of spaces)
    for (const version of [...versionsOf(tx, space, tree).map((v) => v.version), ...inlineVersionsOf(tx, space, tree)])
      if (!loaded.has(version.id) && !out.some((n) => n.version.id === version.id)) out.push({ specId: version.spec, version });
  return out;
}

/**
 * The versions the space's inline operation blocks show (part of a page's cache signature: a new
 * version of one of their specs draws the page again); undefined when the tree has none.
 */
export function inlineVersions(tx: ReadTx, space: SpaceRecord, tree: readonly PageNode[]): string | undefined {
  const vs = inlineVersionsOf(tx, space, tree);
  return vs.length ? vs.map((v) => v.id).join(',') : undefined;
}

/** What an inline block's spec is now: its indexed latest version, or why there is none. */
export type InlineSpec = { spec: ApiSpec } | { problem: 'no-spec' | 'no-version' | 'unreadable' | 'not-loaded' };

/** The spec `slug` of the space's organization as inline blocks draw it (load it first: missingApis). */
export function inlineSpec(tx: ReadTx, organization: string, slug: string): InlineSpec {
  const spec = findSpec(tx, organization, slug);
  if (!spec) return { problem: 'no-spec' };
  const v = latestVersion(tx, organization, slug);
  if (!v) return { problem: 'no-version' };
  const got = loaded.get(v.id);
  if (got === undefined) return { problem: 'not-loaded' };
  return got ? { spec: got } : { problem: 'unreadable' };
}

const loading = new Map<string, Promise<void>>();

/** Reads and indexes the versions named (once, whoever asks at the same time). */
export async function loadApis(ctx: Context, needed: Needed[]): Promise<void> {
  await Promise.all(
    needed.map(({ specId, version }) => {
      let p = loading.get(version.id);
      if (!p) {
        p = (async () => {
          const text = await readContent(ctx, specId, version.id);
          let spec: ApiSpec | null = null;
          try {
            if (text) spec = buildSpec(JSON.parse(text), version.sourceURL);
          } catch (err) {
            if (process.env.DEBUG) console.error('api reference:', err);
          }
          remember(version.id, spec);
        })().finally(() => loading.delete(version.id));
        loading.set(version.id, p);
      }
      return p;
    }),
  );
}

// A version this process has just processed is indexed now, with the text it already holds: the
// first page of a new version does not read and parse megabytes. The parse is deferred to the
// next turn so the processing job's own write is not held up.
onVersion((version, filesystem) => {
  setImmediate(() => {
    if (loaded.has(version.id)) return;
    try {
      remember(version.id, buildSpec(JSON.parse(filesystem), version.sourceURL));
    } catch (err) {
      if (process.env.DEBUG) console.error('api reference:', err);
    }
  });
});

/** For tests and the bench: forget loaded specs (the next render reads and indexes again). */
export const forgetApis = () => loaded.clear();

export interface ApiTree {
  tree: readonly PageNode[];
  pages: Map<string, ApiPage>;
  /** The versions shown (part of a cached page's signature). */
  versions: string;
}

const augmented = new WeakMap<readonly PageNode[], Map<string, ApiTree>>();

/**
 * The space's tree with each reference's generated pages under it, or undefined when the space
 * has no reference (or none is loaded: call `missingApis`/`loadApis` first).
 */
export function apiTree(tx: ReadTx, space: SpaceRecord, tree: readonly PageNode[]): ApiTree | undefined {
  const refs = versionsOf(tx, space, tree).flatMap(({ ref, version }) => {
    const spec = loaded.get(version.id);
    if (spec) {
      // Looked up: most recently used.
      loaded.delete(version.id);
      loaded.set(version.id, spec);
    }
    return spec ? [{ ref, version, spec }] : [];
  });
  if (!refs.length) return undefined;
  const versions = refs.map((r) => r.version.id).join(',');
  let byVersions = augmented.get(tree);
  if (!byVersions) augmented.set(tree, (byVersions = new Map()));
  const hit = byVersions.get(versions);
  if (hit) return hit;
  const pages = new Map<string, ApiPage>();
  const at = new Map(refs.map((r) => [r.ref.pageId, r]));
  const map = (list: readonly PageNode[]): PageNode[] =>
    list.map((p) => {
      const r = at.get(p.id);
      const children = map(p.pages);
      if (!r) return children.every((c, i) => c === p.pages[i]) ? p : { ...p, pages: children };
      const { spec, version } = r;
      const common = { slug: r.ref.slug, version: version.id, spec };
      pages.set(p.id, { kind: 'root', ...common });
      const taken = new Set(p.pages.map((c) => c.slug));
      const stamp = { createdAt: version.createdAt, updatedAt: version.createdAt };
      const generated: PageNode[] = spec.tags.map((tag) => {
        const id = `${p.id}~${tag.slug}`;
        pages.set(id, { kind: 'tag', ...common, tag });
        return {
          id,
          type: 'document',
          title: tag.name,
          slug: taken.has(tag.slug) ? `${tag.slug}-api` : tag.slug,
          ...stamp,
          pages: tag.ops.map((op) => {
            pages.set(`${id}~${op.slug}`, { kind: 'op', ...common, tag, op });
            return { id: `${id}~${op.slug}`, type: 'document', title: op.title, slug: op.slug, ...stamp, pages: [] } as PageNode;
          }),
        };
      });
      return { ...p, pages: [...children, ...generated] };
    });
  const out: ApiTree = { tree: map(tree), pages, versions };
  if (byVersions.size >= 4) byVersions.delete(byVersions.keys().next().value!);
  byVersions.set(versions, out);
  return out;
}
