import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from '../kernel/context.js';
import { DocsError } from '../kernel/errors.js';
import { pageMarkdownForVisitor, type AgentVisitor } from '../published/agents.js';
import { searchSite } from '../published/search.js';
import { siteSegments } from '../urls/site/open.js';
import { locate, siteView, type SiteRef, type SiteView } from '../urls/site/site.js';
import type { Visitor } from '../urls/site/visitor.js';
import type { Providers, ToolProvider } from './server.js';

// A published site's read-only MCP server, for its visitors (`<site URL>/mcp`): two tools,
// search the site and read a page as markdown. Both go through the rendered site's own code
// (src/published/: search, visibility, share keys, conditions) with the visitor the request
// brought, so an agent sees exactly what that visitor's browser would: a page hidden by a
// condition, or closed to them, is "not found".

export interface SiteVisitor {
  ref: SiteRef;
  /** The visitor as checked against the site (openSite). */
  visitor: Visitor;
  /** What the request brought (share key, token, unsigned claims), to enter again per page. */
  given: AgentVisitor;
  /** The endpoint's tools and spaces (its site MCP server record); absent: all of them. */
  config?: { tools?: string[]; spaces?: string[]; instructions?: string };
}

/** The site as the endpoint shows it: only the spaces its configuration names. */
function restricted(view: SiteView, spaces: string[] | undefined): SiteView {
  if (!spaces) return view;
  const allowed = new Set(spaces);
  const sections = view.sections.map((s) => ({ ...s, spaces: s.spaces.filter((e) => allowed.has(e.space.id)) })).filter((s) => s.spaces.length);
  return { ...view, sections };
}

const QUERY_MAX = 200; // as the HTML site's search box
const LIMIT_DEFAULT = 10;
const LIMIT_MAX = 50;

const SEARCH: Tool = {
  name: 'search',
  title: 'Search the site',
  description: 'Full-text search of this documentation site. Returns matching pages (title, URL) with snippets of their matching sections, best first.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1, maxLength: QUERY_MAX, description: 'Words to look for' },
      limit: { type: 'integer', minimum: 1, maximum: LIMIT_MAX, default: LIMIT_DEFAULT, description: 'At most this many pages' },
    },
    required: ['query'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
};

const READ_PAGE: Tool = {
  name: 'read_page',
  title: 'Read a page',
  description:
    "A page of this site as markdown. `page` is the page's path as in the site's URLs (e.g. `guides/install`; empty for the site's first page) or its full URL (as search returns).",
  inputSchema: {
    type: 'object',
    properties: { page: { type: 'string', maxLength: 2048, description: 'Page path under the site, or page URL' } },
    required: ['page'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
};

/** Arguments checked against a tool's (flat) schema: each refusal names its field. */
function checked(tool: Tool, args: Record<string, unknown> | undefined): Record<string, unknown> {
  const given = args ?? {};
  const props = tool.inputSchema.properties as Record<string, any>;
  for (const k of Object.keys(given))
    if (!(k in props)) throw new DocsError('invalid', `${k}: is not an argument of ${tool.name} (arguments: ${Object.keys(props).join(', ')})`);
  for (const k of tool.inputSchema.required ?? []) if (given[k] === undefined) throw new DocsError('invalid', `${k}: is required`);
  for (const [k, v] of Object.entries(given)) {
    const p = props[k];
    if (p.type === 'string') {
      if (typeof v !== 'string') throw new DocsError('invalid', `${k}: must be a string`);
      if (p.minLength && !v.trim()) throw new DocsError('invalid', `${k}: must not be empty`);
      if (v.length > p.maxLength) throw new DocsError('invalid', `${k}: longer than ${p.maxLength} characters`);
    } else if (p.type === 'integer') {
      if (typeof v !== 'number' || !Number.isInteger(v) || v < p.minimum || v > p.maximum)
        throw new DocsError('invalid', `${k}: must be an integer from ${p.minimum} to ${p.maximum}`);
    }
  }
  return given;
}

/** The site URL of `page` (a path under the site, a site path or a URL); undefined if it is another site's. */
function pageAddress(ctx: Context, ref: SiteRef, page: string): string | undefined {
  const trimmed = page.trim().replace(/[?#].*$/, '');
  if (/^https?:\/\//i.test(trimmed) || trimmed.startsWith('/sites/')) {
    const segs = siteSegments(trimmed);
    if (!segs) return undefined;
    const [org, basename, ...rest] = segs;
    // The site's organization by hostname or id, as its addresses accept.
    if (basename !== ref.site.basename || (org !== ref.org.id && org !== ref.org.hostname)) return undefined;
    return `${ctx.baseUrl}${ref.base}${rest.map((s) => `/${encodeURIComponent(s)}`).join('')}`;
  }
  return `${ctx.baseUrl}${ref.base}${trimmed.replace(/^\/+/, '') ? `/${trimmed.replace(/^\/+/, '')}` : ''}`;
}

function siteTools(ctx: Context, at: SiteVisitor): ToolProvider {
  const served = (tool: string) => !at.config?.tools || at.config.tools.includes(tool);
  return {
    list: () => [SEARCH, READ_PAGE].filter((t) => served(t.name)),
    call(name, args) {
      if (!served(name)) return undefined;
      if (name === SEARCH.name)
        return (async (): Promise<CallToolResult> => {
          const { query, limit = LIMIT_DEFAULT } = checked(SEARCH, args) as { query: string; limit?: number };
          const view = restricted(await ctx.store.read((tx) => siteView(tx, at.ref, at.visitor)), at.config?.spaces);
          const groups = await searchSite(ctx, view, query);
          const results = groups
            .flatMap((g) =>
              g.pages.map((p) => ({
                title: p.title,
                url: `${ctx.baseUrl}${p.url}`,
                ...(g.section ? { section: g.section } : {}),
                space: g.space,
                snippets: p.sections.map((s) => ({ title: s.title, url: `${ctx.baseUrl}${s.url}`, snippet: s.snippet })),
              })),
            )
            .slice(0, limit);
          const text = results.length
            ? results.map((r) => `## [${r.title}](${r.url})\n${r.snippets.map((s) => `- [${s.title}](${s.url}): ${s.snippet}`).join('\n')}`).join('\n\n')
            : `No results for "${query}".`;
          return { content: [{ type: 'text', text }], structuredContent: { query, results } };
        })();
      if (name === READ_PAGE.name)
        return (async (): Promise<CallToolResult> => {
          const { page } = checked(READ_PAGE, args) as { page: string };
          const url = pageAddress(ctx, at.ref, page);
          if (!url) throw new DocsError('not_found', `page: ${page} is not a page of this site (${ctx.baseUrl}${at.ref.base})`);
          if (at.config?.spaces) {
            // A page of a space the endpoint does not serve: not found, as a page closed to the visitor.
            const rest = (siteSegments(url) ?? []).slice(2);
            const where = await ctx.store.read((tx) => locate(siteView(tx, at.ref, at.visitor), rest));
            if (where?.kind !== 'space' || !at.config.spaces.includes(where.entry.space.id)) throw new DocsError('not_found', `page: not found: ${page}`);
          }
          const found = await pageMarkdownForVisitor(ctx, url, at.given);
          // Closed to this visitor or not there: the same answer, as the HTML site's 404.
          if (!found) throw new DocsError('not_found', `page: not found: ${page}`);
          return { content: [{ type: 'text', text: found.markdown }], structuredContent: { title: found.title, url: found.url, markdown: found.markdown } };
        })();
      return undefined;
    },
  };
}

export function siteProviders(ctx: Context, at: SiteVisitor, version: string): Providers {
  return {
    name: `docs-site-${at.ref.site.basename}`,
    version,
    instructions:
      `The published documentation site "${at.ref.site.title}" (${ctx.baseUrl}${at.ref.base}), read-only: ` +
      '`search` finds pages by words, `read_page` gives a page as markdown by its path or URL.' +
      // The site's own instructions for agents (its agent settings, docs/manual/site-agents.md#agent-settings).
      (at.config?.instructions ? `\n\nThe site's instructions:\n\n${at.config.instructions}` : ''),
    tools: siteTools(ctx, at),
  };
}
