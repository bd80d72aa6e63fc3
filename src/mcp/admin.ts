import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { OperationInput } from '../contract/validate.js';
import { DocsError } from '../kernel/errors.js';
import { collectPages, type ListBody } from '../transport/follow-pages.js';
import type { CallResult } from '../transport/types.js';
import type { Providers, PromptProvider, ResourceProvider, ToolProvider } from './server.js';
import type { ToolEntry } from './tool-schema.js';
import { selectTools, toInput, type ToolFilter } from './tools.js';

// The administration MCP server: every registered operation as a tool, a space's pages as
// markdown resources, the organization's agent instructions as a prompt. Everything goes through
// `call`, a transport's call (in-process invoke or HTTP): the caller's token, the contract's
// validation and permissions, the API's error messages.

export type Call = (operationId: string, input?: OperationInput) => Promise<CallResult>;

export function adminProviders(call: Call, filter: ToolFilter, version: string): Providers {
  return {
    name: 'docs',
    version,
    instructions:
      'Administers a GitBook-style documentation platform (GitBook v1 API): every tool is one API operation, named by its operationId; ' +
      'arguments are its path and query parameters and its body fields. Pages are resources (docs://spaces/{spaceId}/pages/{pageId}); ' +
      "an organization's agent instructions are the agent-instructions prompt.",
    tools: operationTools(call, selectTools(filter)),
    resources: pageResources(call),
    prompts: agentInstructions(call),
  };
}

function operationTools(call: Call, tools: ToolEntry[]): ToolProvider {
  const byName = new Map(tools.map((t) => [t.name, t]));
  // Only MCP's fields go out (not the argument split, method or area).
  const listed: Tool[] = tools.map(({ name, description, inputSchema, annotations }) => ({
    name,
    description,
    inputSchema: inputSchema as Tool['inputSchema'],
    annotations,
  }));
  return {
    list: () => listed,
    call(name, args) {
      const tool = byName.get(name);
      if (!tool) return undefined;
      return (async (): Promise<CallToolResult> => {
        const res = await call(tool.name, toInput(tool, args));
        const body = res.body;
        const text = body === undefined || body === '' ? `done (HTTP ${res.status})` : JSON.stringify(body, null, 2);
        const structured = body && typeof body === 'object' && !Array.isArray(body) ? { structuredContent: body as Record<string, unknown> } : {};
        return { content: [{ type: 'text', text }], ...structured };
      })();
    },
  };
}

const PAGE_URI = /^docs:\/\/spaces\/([^/]+)\/pages\/([^/]+)$/;
const SPACES_PER_LIST = 10;

/** Every item of a paginated list (`items` + `next.page`), guarded against a looping cursor. */
async function everything(call: Call, operationId: string, path: Record<string, string>): Promise<any[]> {
  const get = async (page?: string): Promise<ListBody> => {
    const body = (await call(operationId, { path, query: { limit: 1000, ...(page ? { page } : {}) } })).body as any;
    return { ...body, items: body?.items ?? [] };
  };
  return (await collectPages(await get(), get)).items;
}

function pageResources(call: Call): ResourceProvider {
  return {
    templates: [{ uriTemplate: 'docs://spaces/{spaceId}/pages/{pageId}', name: 'page', title: 'A page of a space, as markdown', mimeType: 'text/markdown' }],
    // Pages of the caller's spaces, a few spaces per answer (a cursor says where to go on).
    async list(cursor) {
      const from = cursor === undefined ? 0 : Number(cursor);
      if (!Number.isInteger(from) || from < 0) throw new DocsError('invalid', `cursor: not a cursor of this server: ${cursor}`);
      const orgs = await everything(call, 'listOrganizationsForAuthenticatedUser', {});
      const spaces: any[] = [];
      for (const org of orgs) spaces.push(...(await everything(call, 'listSpacesInOrganizationById', { organizationId: org.id })));
      const resources: { uri: string; name: string; title?: string; mimeType: string }[] = [];
      for (const space of spaces.slice(from, from + SPACES_PER_LIST)) {
        const body = (await call('listPages', { path: { spaceId: space.id } })).body as any;
        const walk = (pages: any[]) => {
          for (const p of pages ?? []) {
            if (p.type === 'document')
              resources.push({
                uri: `docs://spaces/${space.id}/pages/${p.id}`,
                name: p.path ?? p.id,
                title: `${space.title} / ${p.title}`,
                mimeType: 'text/markdown',
              });
            walk(p.pages);
          }
        };
        walk(body?.pages);
      }
      return { resources, ...(from + SPACES_PER_LIST < spaces.length ? { nextCursor: String(from + SPACES_PER_LIST) } : {}) };
    },
    read(uri) {
      const m = PAGE_URI.exec(uri);
      if (!m) return undefined;
      const [spaceId, pageId] = [decodeURIComponent(m[1]!), decodeURIComponent(m[2]!)];
      return call('getPageById', { path: { spaceId, pageId }, query: { format: 'markdown' } }).then((res) => ({
        contents: [{ uri, mimeType: 'text/markdown', text: String((res.body as any)?.markdown ?? '') }],
      }));
    },
  };
}

function agentInstructions(call: Call): PromptProvider {
  return {
    prompts: [
      {
        name: 'agent-instructions',
        title: "The organization's Docs agent instructions",
        description: 'The instructions the organization gives its documentation agents (markdown).',
        arguments: [{ name: 'organizationId', description: 'The organization (optional when you belong to one only)', required: false }],
      },
    ],
    get(name, args) {
      if (name !== 'agent-instructions') return undefined;
      return (async () => {
        let organizationId = args?.organizationId;
        if (!organizationId) {
          const orgs = await everything(call, 'listOrganizationsForAuthenticatedUser', {});
          if (orgs.length !== 1)
            throw new DocsError(
              'invalid',
              `organizationId: is required (you belong to ${orgs.length} organizations${orgs.length ? ': ' + orgs.map((o) => o.id).join(', ') : ''})`,
            );
          organizationId = orgs[0].id as string;
        }
        const body = (await call('getOrganizationAgentInstructions', { path: { organizationId } })).body as any;
        // The API holds them as a Document; agents read markdown (as `docs agent-instructions get` prints).
        const { documentToMarkdown } = await import('../documents/markdown.js');
        return {
          description: `Docs agent instructions of organization ${organizationId}`,
          messages: [{ role: 'user' as const, content: { type: 'text' as const, text: documentToMarkdown(body?.instructions ?? { nodes: [] }) } }],
        };
      })();
    },
  };
}
