import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate, bearer } from '../src/auth/tokens.js';
import type { Caller, Context } from '../src/kernel/context.js';
import { asDocsError, DocsError } from '../src/kernel/errors.js';
import type { Providers } from '../src/mcp/server.js';
import { booleanFlag, refuseCaseVariants, singleParam } from '../src/kernel/query-flags.js';
import { collectEvents } from '../src/kernel/operation.js';
import { header, readJsonBody } from './body.js';

/** The query parameters of `/mcp`. */
const MCP_PARAMS = ['read-only', 'tools'];

// `/mcp`: the administration MCP server over Streamable HTTP, stateless (a server per request,
// no session to keep), for callers with a bearer token, as for the API. Tool calls run through
// `invoke` as that caller. `?read-only=1&tools=spaces,cr` narrow the tools as `docs mcp` flags do.
// The MCP SDK is loaded on the first /mcp request only.

/** A refusal before MCP runs, as a JSON-RPC error (what an MCP client reads) with the HTTP status. */
function refuse(res: ServerResponse, err: unknown, rpcCode: number): number {
  const e = asDocsError(err);
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (e.kind === 'unauthenticated') headers['www-authenticate'] = 'Bearer';
  if (e.kind === 'too_large') headers.connection = 'close';
  if (e.kind === 'method_not_allowed') headers.allow = 'POST';
  Object.assign(headers, (e as any).headers); // Retry-After of a 429
  res.writeHead(e.status, headers);
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: rpcCode, message: e.message, data: e.toBody() }, id: null }));
  return e.status;
}

let version: string | undefined;
async function packageVersion(): Promise<string> {
  if (version) return version;
  const [{ readFileSync }, { join }, { packageRoot }] = await Promise.all([import('node:fs'), import('node:path'), import('../src/kernel/root.js')]);
  return (version = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')).version as string);
}

export async function serveMcp(
  ctx: Context,
  req: IncomingMessage,
  res: ServerResponse,
  search: string,
  auth: (req: IncomingMessage, res: ServerResponse) => Promise<Caller> = (r) => authenticate(ctx, bearer(header(r, 'authorization'))),
): Promise<number> {
  let caller;
  try {
    caller = await auth(req, res);
  } catch (err) {
    return refuse(res, err, -32001);
  }
  // Stateless: no session, so no GET stream to resume and no DELETE to end one.
  if (req.method !== 'POST')
    return refuse(res, new DocsError('method_not_allowed', `${req.method} is not allowed on /mcp (allowed: POST; this server is stateless)`), -32000);
  let body: unknown;
  try {
    body = await readJsonBody(req);
  } catch (err) {
    return refuse(res, err, asDocsError(err).kind === 'too_large' ? -32600 : -32700);
  }
  const params = new URLSearchParams(search);
  const [{ adminProviders }, { selectTools }, { invoke }] = await Promise.all([
    import('../src/mcp/admin.js'),
    import('../src/mcp/tools.js'),
    import('../src/invoke.js'),
  ]);
  let filter;
  try {
    // Strict (src/kernel/query-flags.ts): a narrowing flag that is not understood is refused, never ignored.
    refuseCaseVariants(params, MCP_PARAMS);
    filter = { readOnly: booleanFlag(params, 'read-only') ?? false, areas: singleParam(params, 'tools')?.split(',').filter(Boolean) };
    selectTools(filter);
  } catch (err) {
    return refuse(res, err, -32602);
  }
  const call = async (operationId: string, input?: object) => {
    const r = await invoke(ctx, operationId, input ?? {}, caller);
    if (r.error) throw r.error;
    // A streamed answer is one tool result: the list of its events.
    const body = r.events ? await collectEvents(r.events) : r.body;
    return { status: r.status, body, headers: r.headers ?? {} };
  };
  return answerMcp(req, res, body, adminProviders(call, filter, await packageVersion()));
}

/**
 * Answers one MCP message over Streamable HTTP, stateless: a server per request from `providers`.
 * Shared by every MCP endpoint: the administration one above, a published site's read-only one
 * below (each with its own check before and its own providers).
 */
export async function answerMcp(req: IncomingMessage, res: ServerResponse, body: unknown, providers: Providers): Promise<number> {
  const [{ StreamableHTTPServerTransport }, { createMcpServer }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('../src/mcp/server.js'),
  ]);
  const server = createMcpServer(providers);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
  return res.statusCode;
}

/**
 * `<published site URL>/mcp`: the site's read-only MCP server for its visitors (src/mcp/site.ts).
 * No API token: the visitor's access comes from the same inputs as the HTML site (share key and
 * visitor token in the query or the site's cookies, unsigned claims), plus a visitor token as
 * `Authorization: Bearer` (what an MCP client's configuration can send). A site the visitor may
 * not see answers 404 whatever the reason, as the HTML site does.
 */
export async function serveSiteMcp(ctx: Context, req: IncomingMessage, res: ServerResponse, pathname: string, search: string): Promise<number> {
  const [{ openSite, siteSegments }, { parseCookies, visitorInput }] = await Promise.all([
    import('../src/urls/site/open.js'),
    import('../src/urls/site/visitor.js'),
  ]);
  const [orgKey, basename, , slug = ''] = siteSegments(pathname) ?? [];
  const query = new URLSearchParams(search);
  const auth = /^Bearer\s+(\S+)$/i.exec(header(req, 'authorization') ?? '')?.[1];
  if (auth && !query.has('jwt_token')) query.set('jwt_token', auth);
  const cookies = parseCookies(req.headers.cookie);
  const held: { input?: ReturnType<typeof visitorInput> } = {};
  // The visitor's cookies are named after the site: read once the site is known.
  const opened = orgKey && basename ? await openSite(ctx, orgKey, basename, (siteId) => (held.input = visitorInput(query, cookies, siteId))) : undefined;
  const given = held.input;
  if (!opened || !given) return refuse(res, new DocsError('not_found', 'not found'), -32001);
  if (req.method !== 'POST')
    return refuse(
      res,
      new DocsError('method_not_allowed', `${req.method} is not allowed on ${opened.ref.base}/mcp (allowed: POST; this server is stateless)`),
      -32000,
    );
  let body: unknown;
  try {
    body = await readJsonBody(req);
  } catch (err) {
    return refuse(res, err, asDocsError(err).kind === 'too_large' ? -32600 : -32700);
  }
  // The endpoint's configuration (its site MCP server record): which tools and spaces, which
  // headers a client must send (docs/manual/site-delivery.md#site-mcp-servers).
  const { endpointConfig } = await import('../src/sites/mcp-servers.js');
  const config = await ctx.store.read((tx) => endpointConfig(tx, opened.ref.site.id, slug, (name) => header(req, name)));
  if (!config) return refuse(res, new DocsError('not_found', 'not found'), -32001);
  const { siteProviders } = await import('../src/mcp/site.js');
  const { fromQuery: _f, ...agent } = given;
  return answerMcp(req, res, body, siteProviders(ctx, { ...opened, given: agent, config }, await packageVersion()));
}
