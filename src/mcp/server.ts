import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
  type GetPromptResult,
  type ListResourcesResult,
  type Prompt,
  type ReadResourceResult,
  type ResourceTemplate,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { asDocsError } from '../kernel/errors.js';

// An MCP server assembled from providers, so that each way of exposing docs is only its
// providers: the administration server (operations as tools, pages as resources, agent
// instructions as a prompt: src/mcp/admin.ts) and a published site's read-only server (two
// tools, search and read a page, under the site's own visibility rules: src/mcp/site.ts).

export interface ToolProvider {
  list(): Tool[];
  /** Undefined for a tool this server does not have. Throw a DocsError for a refused call. */
  call(name: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> | undefined;
}

export interface ResourceProvider {
  templates: ResourceTemplate[];
  list(cursor: string | undefined): Promise<ListResourcesResult>;
  /** Undefined for a URI this server does not serve. */
  read(uri: string): Promise<ReadResourceResult> | undefined;
}

export interface PromptProvider {
  prompts: Prompt[];
  /** Undefined for a prompt this server does not have. */
  get(name: string, args: Record<string, string> | undefined): Promise<GetPromptResult> | undefined;
}

export interface Providers {
  name: string;
  version: string;
  instructions?: string;
  tools: ToolProvider;
  resources?: ResourceProvider;
  prompts?: PromptProvider;
}

/** A refused call as MCP's tool error: the API's error message, then its error body. */
export function toolError(err: unknown): CallToolResult {
  const e = asDocsError(err);
  return {
    isError: true,
    content: [
      { type: 'text', text: e.message },
      { type: 'text', text: JSON.stringify(e.toBody()) },
    ],
  };
}

/**
 * A JSON-RPC error the SDK passes on as it is (code and message). Not McpError, whose message
 * gains an "MCP error <code>:" prefix that the client then adds again.
 */
const rpcError = (code: number, message: string, data?: unknown) => Object.assign(new Error(message), { code, ...(data === undefined ? {} : { data }) });

// A request that reaches nothing (unknown tool, resource or prompt) is a protocol error, as in the SDK.
const unknown = (what: string) => rpcError(ErrorCode.InvalidParams, what);

/** The server, and a promise of the moment no request is being answered (for a clean exit). */
export type McpServer = Server & { idle(): Promise<void> };

export function createMcpServer(p: Providers): McpServer {
  const capabilities: Record<string, object> = { tools: {} };
  if (p.resources) capabilities.resources = {};
  if (p.prompts) capabilities.prompts = {};
  // The SDK's default JSON Schema validator serves elicitation only, which no provider uses:
  // skip building its ajv instance.
  const jsonSchemaValidator = { getValidator: () => (input: unknown) => ({ valid: true as const, data: input as any, errorMessage: undefined }) };
  const base = new Server({ name: p.name, version: p.version }, { capabilities, instructions: p.instructions, jsonSchemaValidator });
  // Requests being answered, so that a client closing stdin right after its last request still
  // gets every answer before the process exits.
  const running = new Set<Promise<unknown>>();
  const server = Object.assign(base, {
    async idle() {
      await new Promise((r) => setImmediate(r)); // requests already read start their handlers
      while (running.size) await Promise.allSettled([...running]);
    },
  });
  const setRequestHandler = base.setRequestHandler.bind(base);
  (server as any).setRequestHandler = (schema: any, handler: (...a: any[]) => any) =>
    setRequestHandler(schema, (...args: any[]) => {
      const out = Promise.resolve().then(() => handler(...args));
      running.add(out);
      void out.catch(() => {}).finally(() => running.delete(out));
      return out;
    });

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: p.tools.list() }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const out = p.tools.call(req.params.name, req.params.arguments);
    if (!out) throw unknown(`unknown tool ${req.params.name} (tools/list says which there are)`);
    try {
      return await out;
    } catch (err) {
      return toolError(err);
    }
  });
  const resources = p.resources;
  if (resources) {
    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: resources.templates }));
    server.setRequestHandler(ListResourcesRequestSchema, (req) => resources.list(req.params?.cursor).catch(asMcpError));
    server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
      const out = resources.read(req.params.uri);
      if (!out) throw unknown(`unknown resource ${req.params.uri} (expected ${resources.templates.map((t) => t.uriTemplate).join(' or ')})`);
      return out.catch(asMcpError);
    });
  }
  const prompts = p.prompts;
  if (prompts) {
    server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: prompts.prompts }));
    server.setRequestHandler(GetPromptRequestSchema, async (req) => {
      const out = prompts.get(req.params.name, req.params.arguments);
      if (!out) throw unknown(`unknown prompt ${req.params.name}`);
      return out.catch(asMcpError);
    });
  }
  return server;
}

/** Outside tool calls, a refused request is a JSON-RPC error carrying the API's message. */
function asMcpError(err: unknown): never {
  const e = asDocsError(err);
  const code =
    e.kind === 'invalid' || e.kind === 'not_found'
      ? ErrorCode.InvalidParams
      : e.kind === 'unauthenticated' || e.kind === 'forbidden'
        ? ErrorCode.InvalidRequest
        : ErrorCode.InternalError;
  throw rpcError(code, e.message, e.toBody());
}
