import type { Caller, Context } from '../kernel/context.js';
import { invalid } from '../kernel/errors.js';
import { requireContentEdit } from '../spaces/service.js';
import type { WriteTx } from '../store/port.js';
import { runBatch } from './authoring.js';
import type { Parse } from './link-refs.js';
import { commitRevision } from './revisions.js';
import { Spaces } from '../spaces/tables.js';

// Built-in templates for `applyTemplateToSpace`: each is a list of pages (markdown), inserted at
// the end of the space's root, either into a change request (`changeRequestId`) or straight into
// the space as a new revision. `params.contentRefs` fills `{{name}}` placeholders with links:
// a `url` ref gives its URL, a `page` ref `/pages/<id>`, a `file` ref `/files/<id>`. A template
// names the refs it takes; an unknown template or ref is a 400.

interface TemplatePage {
  ref: string;
  title: string;
  markdown: string;
  into?: string;
}

export interface Template {
  id: string;
  title: string;
  /** Names of the contentRefs it takes, and whether each is required. */
  refs: Record<string, { required: boolean; description: string }>;
  pages: TemplatePage[];
}

export const TEMPLATES: Template[] = [
  {
    id: 'getting-started',
    title: 'Getting started: an overview, a quickstart and installation steps',
    refs: { repository: { required: false, description: 'where the source lives (a url ref)' } },
    pages: [
      {
        ref: 'overview',
        title: 'Overview',
        markdown:
          'What this project does, who it is for, and where to go next.\n\n- [Quickstart](./quickstart.md)\n- [Installation](./installation.md)\n{{repository:\n\nSource code: [repository]({{repository}})}}\n',
      },
      {
        ref: 'quickstart',
        title: 'Quickstart',
        markdown:
          'Get a first result in five minutes.\n\n## 1. Install\n\nSee [Installation](./installation.md).\n\n## 2. Run\n\n```sh\n# your first command\n```\n',
      },
      { ref: 'installation', title: 'Installation', markdown: '## Requirements\n\n- \n\n## Install\n\n```sh\n# install command\n```\n' },
    ],
  },
  {
    id: 'api-reference',
    title: 'API reference: authentication, errors, pagination, endpoints',
    refs: { openapi: { required: false, description: 'the OpenAPI document (a url or file ref)' } },
    pages: [
      {
        ref: 'api',
        title: 'API reference',
        markdown: 'Base URL, versioning and conventions of the API.{{openapi:\n\nThe OpenAPI document: [download]({{openapi}})}}\n',
      },
      {
        ref: 'authentication',
        title: 'Authentication',
        into: 'api',
        markdown: 'Send a bearer token in the `Authorization` header.\n\n```http\nAuthorization: Bearer <token>\n```\n',
      },
      { ref: 'errors', title: 'Errors', into: 'api', markdown: 'Errors are `{"error": {"code", "message"}}` with the HTTP status as `code`.\n' },
      { ref: 'pagination', title: 'Pagination', into: 'api', markdown: 'Lists return `items`, `count` and `next.page`; pass `page` to get the next one.\n' },
    ],
  },
  {
    id: 'faq',
    title: 'FAQ: questions and answers with a support link',
    refs: { support: { required: true, description: 'where people get help (a url ref)' } },
    pages: [
      {
        ref: 'faq',
        title: 'FAQ',
        markdown: '## How do I get help?\n\nAsk [support]({{support}}).\n\n## Where do I report a bug?\n\nOpen an issue with the steps to reproduce it.\n',
      },
    ],
  },
];

function refUrl(name: string, ref: any): string {
  switch (ref?.kind) {
    case 'url':
      return ref.url;
    case 'page':
      return `/pages/${ref.page}`;
    case 'file':
      return `/files/${ref.file}`;
    default:
      throw invalid(`params.contentRefs.${name}: must be a url, page or file reference`);
  }
}

/** The template's pages with their placeholders filled; `{{name:text}}` keeps text only when given. */
export function renderTemplate(id: string, contentRefs: Record<string, unknown> = {}): TemplatePage[] {
  const t = TEMPLATES.find((x) => x.id === id);
  if (!t) throw invalid(`id: no template ${id} (templates: ${TEMPLATES.map((x) => x.id).join(', ')})`);
  for (const name of Object.keys(contentRefs))
    if (!t.refs[name]) throw invalid(`params.contentRefs.${name}: template ${id} takes ${Object.keys(t.refs).join(', ') || 'no refs'}`);
  for (const [name, r] of Object.entries(t.refs))
    if (r.required && !contentRefs[name]) throw invalid(`params.contentRefs.${name}: required by template ${id} (${r.description})`);
  const urls = Object.fromEntries(Object.entries(contentRefs).map(([k, v]) => [k, refUrl(k, v)]));
  const fill = (md: string) =>
    md.replace(/\{\{(\w+)\}\}/g, (_, name) => urls[name] ?? '').replace(/\{\{(\w+):([\s\S]*?)\}\}/g, (_, name, text) => (urls[name] ? text : ''));
  return t.pages.map((p) => ({ ...p, markdown: fill(p.markdown) }));
}

/** The batch inserting the template's pages; parents are named by ref (`api`), resolved as the batch goes. */
export function templateChanges(body: { id: string; params?: { contentRefs?: Record<string, unknown> } }) {
  const pages = renderTemplate(body.id, body.params?.contentRefs);
  return pages.map((p) => ({ operation: 'insert_page', ref: p.ref, title: p.title, document: { markdown: p.markdown }, ...(p.into ? { into: p.into } : {}) }));
}

/** Applies a template to the space itself (a change request's: src/change-requests/authoring.ts); taken slugs get a number. */
export function applyTemplate(
  tx: WriteTx,
  ctx: Context,
  caller: Caller,
  spaceId: string,
  body: { id: string; params?: { contentRefs?: Record<string, unknown> } },
  parse: Parse,
) {
  const { row: space } = requireContentEdit(tx, caller, spaceId);
  const withParents = templateChanges(body);
  const res = runBatch(tx, ctx, spaceId, space.revision, space.revision, withParents, new Map(), parse, true);
  const rev = commitRevision(tx, ctx, spaceId, [space.revision], { pages: res.pages, files: res.files, message: `Template ${body.id}`, author: caller.userId });
  tx.put(Spaces, { ...space, revision: rev.id, updatedAt: ctx.clock.now().toISOString() });
}
