import type { Schema } from '../contract/types.js';
import { apiUrl, type Context } from '../kernel/context.js';
import { conflict, invalid, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { agentInstructionsText } from './agents.js';
import type { SiteMcpServerRecord, SiteRecord } from './model.js';
import { SiteMcpServers, SiteSpaces } from './tables.js';

// A site's MCP endpoints (docs/manual/site-delivery.md#site-mcp-servers). The contract's
// SiteMcpServer is a name, a URL and headers; here the URL is the endpoint of the site it
// configures: its path the site's `/mcp` (or `/mcp/<slug>`, one more endpoint), its query which
// tools (`tools=search,read_page`) and which of the site's spaces (`spaces=ID,ID`) it serves, and
// the headers those a client must send to use it (an access key of the endpoint). The site's MCP
// server (server/mcp.ts, src/mcp/site.ts) honours the record of the path it is asked on.

/** The tools of a site's MCP endpoint (src/mcp/site.ts). */
export const SITE_MCP_TOOLS = ['search', 'read_page'] as const;
const ENDPOINT = /^(?:\/sites\/[^/]+\/[^/]+)?\/mcp(?:\/([a-z0-9][a-z0-9-]{0,62}))?$/;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/;
const RESERVED_HEADERS = new Set(['host', 'content-length', 'content-type', 'accept', 'connection', 'transfer-encoding', 'cookie', 'authorization']);

/** The URL read into the record's endpoint, tools and spaces; 400 naming `url` otherwise. */
export function readEndpoint(tx: ReadTx, site: SiteRecord, raw: string): Pick<SiteMcpServerRecord, 'url' | 'endpoint' | 'tools' | 'spaces'> {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw invalid(`url: must be an absolute URL of the site's MCP endpoint (<site URL>/mcp), got ${JSON.stringify(raw)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw invalid('url: must be an http or https URL');
  const m = ENDPOINT.exec(u.pathname);
  const ownBase = u.pathname.startsWith('/sites/') ? u.pathname.split('/')[3] === encodeURIComponent(site.basename) : true;
  if (!m || !ownBase) throw invalid(`url: the path must be the site's MCP endpoint, <site URL>/mcp or <site URL>/mcp/<slug> (got ${u.pathname})`);
  const out: Pick<SiteMcpServerRecord, 'url' | 'endpoint' | 'tools' | 'spaces'> = { url: u.toString(), endpoint: m[1] ?? '' };
  for (const key of u.searchParams.keys()) if (key !== 'tools' && key !== 'spaces') throw invalid(`url: unknown parameter ${key} (parameters: tools, spaces)`);
  const list = (k: string) => [
    ...new Set(
      (u.searchParams.get(k) ?? '')
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    ),
  ];
  if (u.searchParams.has('tools')) {
    const tools = list('tools');
    const bad = tools.find((t) => !(SITE_MCP_TOOLS as readonly string[]).includes(t));
    if (bad || !tools.length) throw invalid(`url: tools must name some of ${SITE_MCP_TOOLS.join(', ')}${bad ? ` (got ${bad})` : ''}`);
    out.tools = tools;
  }
  if (u.searchParams.has('spaces')) {
    const spaces = list('spaces');
    const mine = new Set(tx.find(SiteSpaces, 'site', site.id).map((ss) => ss.space));
    const bad = spaces.find((x) => !mine.has(x));
    if (bad || !spaces.length) throw invalid(`url: spaces must name spaces of site ${site.id}${bad ? ` (${bad} is not one)` : ''}`);
    out.spaces = spaces;
  }
  return out;
}

function checkHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) {
    if (!HEADER_NAME.test(k)) throw invalid(`headers: ${JSON.stringify(k)} is not a header name`);
    if (RESERVED_HEADERS.has(k.toLowerCase())) throw invalid(`headers: ${k} cannot be required (the transport sets it)`);
    if (!/^[\x20-\x7e]+$/.test(v)) throw invalid(`headers.${k}: printable ASCII only`);
    out[k.toLowerCase()] = v;
  }
  if (Object.keys(out).length > 20) throw invalid('headers: at most 20');
  return out;
}

function unique(tx: ReadTx, site: SiteRecord, endpoint: string, except?: string) {
  if (tx.find(SiteMcpServers, 'site', site.id).some((r) => r.endpoint === endpoint && r.id !== except))
    throw conflict(`url: another MCP server of site ${site.id} configures ${endpoint ? `/mcp/${endpoint}` : '/mcp'}`);
}

export function createMcpServer(
  tx: WriteTx,
  ctx: Context,
  site: SiteRecord,
  body: { name: string; url: string; headers: Record<string, string> },
): SiteMcpServerRecord {
  const at = readEndpoint(tx, site, body.url);
  unique(tx, site, at.endpoint);
  const now = ctx.clock.now().toISOString();
  return tx.put(SiteMcpServers, {
    id: newId(),
    organization: site.organization,
    site: site.id,
    name: name(body.name),
    ...at,
    headers: checkHeaders(body.headers),
    createdAt: now,
    updatedAt: now,
  });
}

const name = (raw: string) => {
  const t = String(raw).trim();
  if (!t || t.length > 100) throw invalid('name: 1 to 100 characters');
  return t;
};

export function mcpServerOf(tx: ReadTx, site: SiteRecord, id: string): SiteMcpServerRecord {
  const r = tx.get(SiteMcpServers, id);
  if (!r || r.site !== site.id) throw notFound(`MCP server ${id} not found in site ${site.id}`);
  return r;
}

export function updateMcpServer(
  tx: WriteTx,
  ctx: Context,
  site: SiteRecord,
  id: string,
  body: { name?: string; url?: string; headers?: Record<string, string> },
): SiteMcpServerRecord {
  const r = mcpServerOf(tx, site, id);
  if (body.name === undefined && body.url === undefined && body.headers === undefined) throw invalid('body: give at least one of name, url, headers');
  const next: SiteMcpServerRecord = { ...r, updatedAt: ctx.clock.now().toISOString() };
  if (body.name !== undefined) next.name = name(body.name);
  if (body.url !== undefined) {
    const at = readEndpoint(tx, site, body.url);
    unique(tx, site, at.endpoint, r.id);
    delete next.tools;
    delete next.spaces;
    Object.assign(next, at);
  }
  if (body.headers !== undefined) next.headers = checkHeaders(body.headers);
  return tx.put(SiteMcpServers, next);
}

export function presentMcpServer(ctx: Context, r: SiteMcpServerRecord): Schema<'SiteMcpServer'> {
  return {
    object: 'site-mcp-server',
    id: r.id,
    name: r.name,
    url: r.url,
    // 0.202.0 adds how a client reaches it: this server's endpoints speak Streamable HTTP.
    transport: 'http',
    headers: r.headers,
    urls: { location: apiUrl(ctx, `/orgs/${r.organization}/sites/${r.site}/mcp-servers/${r.id}`) },
  };
}

/**
 * The configuration the site's MCP endpoint at `endpoint` serves: the record's, or everything
 * when the site has none for `/mcp`; undefined when `/mcp/<slug>` has none (404) or the request
 * lacks a required header.
 */
export function endpointConfig(
  tx: ReadTx,
  siteId: string,
  endpoint: string,
  headerOf: (name: string) => string | undefined,
): { tools?: string[]; spaces?: string[]; instructions?: string } | undefined {
  const r = tx.find(SiteMcpServers, 'site', siteId).find((x) => x.endpoint === endpoint);
  // The site's agent instructions (its agent settings' editing.customInstructions) go to every endpoint.
  const text = agentInstructionsText(tx, siteId);
  const instructions = text ? { instructions: text } : {};
  if (!r) return endpoint ? undefined : instructions;
  for (const [k, v] of Object.entries(r.headers)) if (headerOf(k) !== v) return undefined;
  return { ...(r.tools ? { tools: r.tools } : {}), ...(r.spaces ? { spaces: r.spaces } : {}), ...instructions };
}
