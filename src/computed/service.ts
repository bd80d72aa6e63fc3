import { createHash } from 'node:crypto';
import type { FileEntry, PageNode } from '../content/model.js';
import { markdownOf, readRevision, treeOf } from '../content/revisions.js';
import { markdownToDocument, type DocumentJson } from '../documents/markdown.js';
import type { Caller, Context } from '../kernel/context.js';
import { DocsError, invalid } from '../kernel/errors.js';
import { readContent } from '../openapi/content-files.js';
import type { OpenAPISpecRecord, OpenAPIVersionRecord } from '../openapi/model.js';
import { visibleSpec } from '../openapi/service.js';
import { OpenapiVersions } from '../openapi/tables.js';
import type { SpaceRecord } from '../spaces/model.js';
import { visibleSpace } from '../spaces/service.js';
import type { ReadTx } from '../store/port.js';
import { getTranslation } from '../translations/service.js';
import { outline, type SpecOutline, type SpecTag } from './openapi.js';

// Computed content (getComputedDocument, getComputedRevision; docs/manual/content.md#computed-content):
// a document or a revision computed from a source, never stored. The caller must see the space
// the request names. Sources computed here:
//   builtin:openapi      the organization's OpenAPI spec (by slug, its latest processed version):
//                        its operations as openapi-operation blocks, its models as an
//                        openapi-schemas block, its info; a revision has a page per tag.
//   builtin:translation  the latest result of one of the organization's translations (src/translations):
//                        the translated revision, or the translation of one page's document.
// Any other source (an integration's `integration:<name>:<source>`) is a 400 naming it: this
// server runs no integration code, and no integration is asked to compute content.

type Json = Record<string, any>;
type Node = Record<string, unknown>;

export interface ComputedPage {
  node: PageNode;
  document: DocumentJson;
}

const text = (t: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: t, marks: [] }] });
const heading = (level: 1 | 2 | 3, t: string): Node => ({ object: 'block', type: `heading-${level}`, data: {}, nodes: [text(t)] });
const paragraph = (t: string): Node => ({ object: 'block', type: 'paragraph', data: {}, nodes: [text(t)] });
const doc = (nodes: unknown[]): DocumentJson => ({ object: 'document', data: {}, nodes }) as DocumentJson;

/** Markdown (a spec's descriptions are CommonMark) as Document nodes. */
async function markdownNodes(md: string | undefined): Promise<unknown[]> {
  return md ? (await markdownToDocument(md)).nodes : [];
}

function operationBlock(spec: string, op: { path: string; method: string }): Node {
  return { object: 'block', type: 'openapi-operation', isVoid: true, data: { ref: { kind: 'openapi', spec }, path: op.path, method: op.method } };
}

const schemasBlock = (spec: string, schemas: string[]): Node => ({
  object: 'block',
  type: 'openapi-schemas',
  isVoid: true,
  data: { ref: { kind: 'openapi', spec }, schemas, grouped: true },
});

/** An id from the request's seed: the same seed and source give the same ids. */
export const seededId = (seed: string, key: string) => createHash('sha256').update(`${seed}\u0000${key}`).digest('base64url').replace(/[-_]/g, '').slice(0, 20);

// --- sources -------------------------------------------------------------------------------

export type Planned =
  | { kind: 'openapi'; space: SpaceRecord; spec: OpenAPISpecRecord; version: OpenAPIVersionRecord }
  | { kind: 'translation'; space: SpaceRecord; result: SpaceRecord; revision: string; pages: PageNode[]; files: FileEntry[]; markdown: Map<string, string> };

/** The source's type, checked: 400 naming it when this server does not compute it. */
export function sourceType(source: Json): string {
  const type = String(source?.type ?? '');
  if (type === 'builtin:openapi' || type === 'builtin:translation') return type;
  if (type.startsWith('integration:'))
    throw invalid(
      `source.type: ${type}: content computed by an integration is not available on this server (it runs no integration code); the sources computed here are builtin:openapi and builtin:translation`,
    );
  throw invalid(`source.type: ${type || '(none)'}: unknown source; the sources computed here are builtin:openapi and builtin:translation`);
}

/** Everything a computation reads from the store, in one read; the spec's file is read after. */
export function planSource(tx: ReadTx, caller: Caller, spaceId: string, source: Json, want: { document?: string; space?: string }): Planned {
  const { row: space } = visibleSpace(tx, caller, spaceId);
  const type = sourceType(source);
  if (type === 'builtin:openapi') {
    const slug = source.dependencies?.spec?.ref?.spec;
    if (typeof slug !== 'string') throw invalid('source.dependencies.spec.ref.spec: give the slug of an OpenAPI spec');
    let spec: OpenAPISpecRecord;
    try {
      spec = visibleSpec(tx, space.organization, slug, caller).spec;
    } catch (err) {
      if (err instanceof DocsError && err.kind === 'not_found')
        throw invalid(`source.dependencies.spec.ref.spec: no OpenAPI spec "${slug}" in the organization of space ${space.id}`);
      throw err;
    }
    const version = spec.lastVersion ? tx.get(OpenapiVersions, spec.lastVersion) : undefined;
    if (!version) throw new DocsError('precondition', `source: OpenAPI spec "${slug}" has no processed version yet (processingState: ${spec.processingState})`);
    return { kind: 'openapi', space, spec, version };
  }
  const id = source.dependencies?.translation?.ref?.translation;
  if (typeof id !== 'string') throw invalid('source.dependencies.translation.ref.translation: give the id of a translation');
  let t: ReturnType<typeof getTranslation>['t'];
  try {
    t = getTranslation(tx, space.organization, caller, id).t;
  } catch (err) {
    if (err instanceof DocsError && err.kind === 'not_found')
      throw invalid(`source.dependencies.translation.ref.translation: no translation ${id} in the organization of space ${space.id}`);
    throw err;
  }
  if (!t.result) throw new DocsError('precondition', `source: translation ${id} has not run yet: run it (docs translations run ${id}) first`);
  const result = visibleSpace(tx, caller, t.result.space).row;
  const rev = readRevision(tx, result.id, t.result.revision);
  let pages = treeOf(tx, rev);
  if (want.document !== undefined) {
    // The page of the source space whose document is `props.document`, in the translation.
    if (want.space !== t.source.space) throw invalid(`source.props.space: translation ${id} translates space ${t.source.space}, not ${want.space}`);
    const source = visibleSpace(tx, caller, t.source.space).row;
    const original = flat(treeOf(tx, readRevision(tx, source.id, source.revision))).find((p) => p.content === want.document);
    if (!original) throw invalid(`source.props.document: no page of space ${source.id} has document ${want.document}`);
    const translated = flat(pages).find((p) => p.id === original.id && p.type === 'document');
    if (!translated) throw invalid(`source.props.document: page ${original.id} is not in the latest result of translation ${id}: run it again`);
    pages = [translated];
  }
  const markdown = new Map(
    flat(pages)
      .filter((p) => p.type === 'document')
      .map((p) => [p.id, markdownOf(tx, result.id, p)]),
  );
  return { kind: 'translation', space, result, revision: rev.id, pages, files: rev.files ?? [], markdown };
}

const flat = (pages: readonly PageNode[]): PageNode[] => pages.flatMap((p) => [p, ...flat(p.pages)]);

export async function specOutline(ctx: Context, p: Extract<Planned, { kind: 'openapi' }>): Promise<SpecOutline> {
  const json = await readContent(ctx, p.spec.id, p.version.id);
  if (!json)
    throw new DocsError('unavailable', `source: the documents of OpenAPI spec "${p.spec.slug}" version ${p.version.id} are missing from this server's files`);
  return outline(JSON.parse(json));
}

// --- builtin:openapi -----------------------------------------------------------------------

function findTag(o: SpecOutline, page: string): SpecTag {
  const t = o.tags.find((x) => x.name === page || x.slug === page);
  if (!t) throw invalid(`source.props.page: no tag "${page}" with operations in the spec (tags: ${o.tags.map((x) => x.name).join(', ') || 'none'})`);
  return t;
}

async function tagNodes(slug: string, t: SpecTag, withTitle: boolean): Promise<unknown[]> {
  return [...(withTitle ? [heading(1, t.title)] : []), ...(await markdownNodes(t.description)), ...t.ops.map((op) => operationBlock(slug, op))];
}

/** getComputedDocument for builtin:openapi, by `props.doc`. */
export async function openapiDocument(slug: string, o: SpecOutline, props: Json): Promise<DocumentJson> {
  switch (props.doc) {
    case 'models':
      return doc(o.schemas.length ? [schemasBlock(slug, o.schemas)] : [paragraph('This spec defines no models.')]);
    case 'info':
      return doc([
        heading(1, o.title),
        ...(o.version ? [paragraph(`Version ${o.version}`)] : []),
        ...(await markdownNodes(o.description)),
        ...(o.servers.length ? [heading(2, 'Servers'), ...o.servers.map((s) => paragraph(s))] : []),
      ]);
    case 'operations':
      return doc(await tagNodes(slug, findTag(o, props.page), false));
    case 'tag':
      return doc(await tagNodes(slug, findTag(o, props.page), true));
    case 'operation': {
      const method = String(props.method);
      if (method === 'hook') {
        const hook = o.webhooks.find((w) => w.name === props.page);
        if (!hook) throw invalid(`source.props.page: no webhook "${props.page}" in the spec`);
        return doc([
          { object: 'block', type: 'openapi-webhook', isVoid: true, data: { ref: { kind: 'openapi', spec: slug }, name: hook.name, method: hook.method } },
        ]);
      }
      const op = o.tags.flatMap((t) => t.ops).find((x) => x.path === props.page && x.method === method);
      if (!op) throw invalid(`source.props: no operation ${method.toUpperCase()} ${props.page} in the spec`);
      return doc([operationBlock(slug, op)]);
    }
    default:
      throw invalid(`source.props.doc: ${props.doc}: not one of models, info, operations, tag, operation`);
  }
}

/** getComputedRevision for builtin:openapi: a page per tag (`by-tag`, the default) or per operation under its tag, then the models. */
export async function openapiPages(seed: string, slug: string, o: SpecOutline, props: Json, at: string): Promise<ComputedPage[]> {
  const node = (key: string, title: string, pageSlug: string, pages: PageNode[] = []): PageNode => ({
    id: seededId(seed, key),
    type: 'document',
    title,
    slug: pageSlug,
    createdAt: at,
    updatedAt: at,
    pages,
  });
  const out: ComputedPage[] = [];
  for (const t of o.tags) {
    if (props.grouping === 'by-operation') {
      const opSlugs = new Set<string>();
      const children: ComputedPage[] = t.ops.map((op) => {
        let s = slugFor(op.title);
        for (let n = 2; opSlugs.has(s); n++) s = `${slugFor(op.title)}-${n}`;
        opSlugs.add(s);
        return { node: node(`op:${op.method}:${op.path}`, op.title, s), document: doc([operationBlock(slug, op)]) };
      });
      const parent = node(
        `tag:${t.name}`,
        t.title,
        t.slug,
        children.map((c) => c.node),
      );
      out.push({ node: parent, document: doc(await markdownNodes(t.description)) }, ...children);
    } else out.push({ node: node(`tag:${t.name}`, t.title, t.slug), document: doc(await tagNodes(slug, t, false)) });
  }
  if (props.models === true && o.schemas.length) out.push({ node: node('models', 'Models', 'models'), document: doc([schemasBlock(slug, o.schemas)]) });
  return out;
}

const slugFor = (title: string) =>
  title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 90) || 'operation';

// --- builtin:translation -------------------------------------------------------------------

export async function translationPages(p: Extract<Planned, { kind: 'translation' }>): Promise<Map<string, DocumentJson>> {
  const out = new Map<string, DocumentJson>();
  for (const [id, md] of p.markdown) out.set(id, await markdownToDocument(md));
  return out;
}
