import { presentFile, presentPage, type PresentedPage } from '../content/present.js';
import type { PageNode } from '../content/model.js';
import type { ResponseBody } from '../contract/types.js';
import type { Context } from '../kernel/context.js';
import { defineOperation } from '../kernel/operation.js';
import type { SpaceRecord } from '../spaces/model.js';
import { openapiDocument, openapiPages, planSource, specOutline, translationPages, type ComputedPage } from './service.js';

type Json = Record<string, any>;

function present(ctx: Context, space: SpaceRecord, tree: PageNode[], documents: Map<string, unknown>): PresentedPage[] {
  // Pages of a computed revision carry their document inline (`document`), as both specs allow.
  const body = (n: PageNode) => ({ document: documents.get(n.id) ?? { object: 'document', data: {}, nodes: [] } });
  return tree.map((n) => presentPage(ctx, space, n, n.slug, body));
}

export const getComputedDocument = defineOperation('getComputedDocument', async ({ ctx, caller, path, body }) => {
  const source = body.source as Json;
  const props = (source.props ?? {}) as Json;
  const plan = await ctx.store.read((tx) => planSource(tx, caller, path.spaceId, source, { document: props.document, space: props.space }));
  if (plan.kind === 'openapi') {
    const document = await openapiDocument(plan.spec.slug, await specOutline(ctx, plan), props);
    return { status: 200, body: document as ResponseBody<'getComputedDocument', '200'> };
  }
  const documents = await translationPages(plan);
  return { status: 200, body: documents.get(plan.pages[0]!.id) as ResponseBody<'getComputedDocument', '200'> };
});

export const getComputedRevision = defineOperation('getComputedRevision', async ({ ctx, caller, path, body }) => {
  const source = body.source as Json;
  const plan = await ctx.store.read((tx) => planSource(tx, caller, path.spaceId, source, {}));
  if (plan.kind === 'openapi') {
    const pages: ComputedPage[] = await openapiPages(
      body.seed,
      plan.spec.slug,
      await specOutline(ctx, plan),
      (source.props ?? {}) as Json,
      plan.version.createdAt,
    );
    const children = new Set(pages.flatMap((p) => p.node.pages.map((c) => c.id)));
    const documents = new Map(pages.map((p) => [p.node.id, p.document]));
    const top = pages.filter((p) => !children.has(p.node.id)).map((p) => p.node);
    return {
      status: 200,
      body: { pages: present(ctx, plan.space, top, documents), files: [], reusableContents: [] } as ResponseBody<'getComputedRevision', '200'>,
    };
  }
  const documents = await translationPages(plan);
  return {
    status: 200,
    body: {
      pages: present(ctx, plan.result, plan.pages, documents),
      files: plan.files.map((f) => presentFile(ctx, plan.result, f)),
      reusableContents: [],
    } as ResponseBody<'getComputedRevision', '200'>,
  };
});
