import { operationSpec } from '../contract/spec.js';
import type { OperationInput } from '../contract/validate.js';
import { DocsError, kindForStatus } from '../kernel/errors.js';
import type { CallResult, Transport } from './types.js';

function queryString(query: Record<string, unknown> | undefined): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null) continue;
    for (const item of Array.isArray(v) ? v : [v]) params.append(k, String(item));
  }
  const s = params.toString();
  return s ? '?' + s : '';
}

/**
 * The message of an error answer: the contract's `{error: {message}}`; else what another server
 * says (an RFC 9457 problem's title/detail and its first few validation messages, as Prism's 422,
 * a `message` field, a short text body); else the status alone.
 */
export function errorMessage(status: number, body: unknown): string {
  const b = body as any;
  if (typeof b?.error?.message === 'string') return b.error.message;
  if (typeof b === 'string' && b.trim() && b.length <= 300) return `HTTP ${status}: ${b.trim()}`;
  if (!b || typeof b !== 'object') return `HTTP ${status}`;
  const head = [b.title, b.detail, b.message].filter((x) => typeof x === 'string' && x).join(': ');
  const list = Array.isArray(b.validation) ? b.validation : Array.isArray(b.errors) ? b.errors : [];
  const details = list
    .map((v: any) => (typeof v === 'string' ? v : v?.message))
    .filter((m: unknown) => typeof m === 'string')
    .slice(0, 3);
  return [`HTTP ${status}`, head, details.join('; ')].filter(Boolean).join(': ');
}

/** One server-sent message: its data as JSON; an `error` event thrown as the error it carries. */
function parseMessage(message: string): unknown {
  let name = 'message';
  const data: string[] = [];
  for (const line of message.split('\n')) {
    if (line.startsWith('event:')) name = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  if (!data.length) return undefined;
  const value = JSON.parse(data.join('\n'));
  if (name === 'error') {
    const code = Number(value?.error?.code) || 500;
    throw new DocsError(kindForStatus(code), errorMessage(code, value));
  }
  return value;
}

/** Every event of a whole server-sent event stream. */
export function sseEvents(text: string): unknown[] {
  return text
    .split('\n\n')
    .map((m) => parseMessage(m))
    .filter((e) => e !== undefined);
}

/** How many times a request answered 429 is sent again, and the longest wait the CLI takes for one. */
export const RATE_LIMIT_RETRIES = 3;
export const RATE_LIMIT_MAX_WAIT_S = 60;

/**
 * The seconds a 429's Retry-After asks for (delay-seconds or an HTTP date); undefined without a
 * usable one.
 */
export function retryAfterSeconds(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface HttpTransportOptions {
  /** Told when a request is sent again after a 429 (the CLI: a line on stderr). */
  notice?: (message: string) => void;
}

/**
 * Calls a `docs serve` (or any server of this API) over HTTP with undici.
 *
 * A 429 (rate limited: the server refused the request without acting on it, so sending it again
 * is safe whatever the method) with a Retry-After of at most RATE_LIMIT_MAX_WAIT_S is sent again
 * after that wait, up to RATE_LIMIT_RETRIES times, as gh and the GitBook clients do: a CI job
 * publishing specs over a token's limit slows down instead of failing. A longer wait, or none
 * given, is answered at once with the server's message (it says when to retry).
 */
/**
 * A kept-alive connection idle longer than this is not used again: a new one is opened. A server
 * closes an idle connection after a few seconds (Node's default: 5 s), and a request sent just as
 * it does is lost with "other side closed" (the classic keep-alive race). A command busy computing
 * (a push comparing hundreds of pages) hits that window easily: its event loop is blocked, so
 * nothing retires the connection in time. Judged by the clock at send time, so a blocked loop
 * changes nothing; a new connection costs a handshake, well below what the gap already cost.
 */
export const IDLE_CONNECTION_MS = 1000;

export class HttpTransport implements Transport {
  readonly remote = true;
  private readonly base: string;
  /** This transport's connection pool (undici), replaced after an idle gap, and when it was last used. */
  private agent: import('undici').Agent | undefined;
  private lastUsed = 0;

  constructor(
    apiUrl: string,
    private readonly token: string | undefined,
    private readonly opts: HttpTransportOptions = {},
  ) {
    // Accept both "http://host:port" and "http://host:port/v1".
    this.base = apiUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
    try {
      const u = new URL(this.base);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
    } catch {
      throw new DocsError('invalid', `api-url: not an http(s) URL: ${apiUrl}`);
    }
  }

  get target() {
    return this.base;
  }

  async request(method: string, path: string, input: { query?: Record<string, unknown>; body?: unknown } = {}): Promise<CallResult> {
    const rel = path.startsWith('/v1/') || path === '/v1' ? path : '/v1' + (path.startsWith('/') ? path : '/' + path);
    return this.send(method, rel, input);
  }

  async docs(method: string, path: string, input: { query?: Record<string, unknown>; body?: unknown } = {}): Promise<CallResult> {
    const result = await this.send(method, path, input);
    if (result.status >= 400) {
      const message = (result.body as any)?.error?.message ?? `HTTP ${result.status} from ${this.base}${path} (is it a docs serve?)`;
      throw new DocsError(kindForStatus(result.status), message);
    }
    return result;
  }

  private async send(
    method: string,
    rel: string,
    input: { query?: Record<string, unknown>; body?: unknown; headers?: Record<string, string> },
  ): Promise<CallResult> {
    for (let attempt = 0; ; attempt++) {
      const result = await this.sendOnce(method, rel, input);
      if (result.status !== 429 || attempt === RATE_LIMIT_RETRIES) return result;
      const wait = retryAfterSeconds(result.headers?.['retry-after']);
      if (wait === undefined || wait > RATE_LIMIT_MAX_WAIT_S) return result;
      this.opts.notice?.(
        `${errorMessage(429, result.body)}: sending ${method.toUpperCase()} ${rel} again in ${wait} s (retry ${attempt + 1} of ${RATE_LIMIT_RETRIES})`,
      );
      await sleep(wait * 1000);
    }
  }

  private async sendOnce(
    method: string,
    rel: string,
    input: { query?: Record<string, unknown>; body?: unknown; headers?: Record<string, string> },
  ): Promise<CallResult> {
    const { request } = await import('undici'); // loaded only when a command goes over HTTP
    const headers: Record<string, string> = { ...input.headers, accept: 'application/json' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    let body: string | undefined;
    if (input.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(input.body);
    }
    let res;
    const dispatcher = await this.dispatcher();
    try {
      res = await request(this.base + rel + queryString(input.query), {
        method: method.toUpperCase() as any,
        headers,
        body,
        headersTimeout: 60_000,
        bodyTimeout: 60_000,
        dispatcher,
      });
    } catch (err) {
      const code = (err as { code?: string }).code;
      // Reached, then cut off: the server is up (not "cannot reach"); it closed the connection.
      if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET')
        throw new DocsError('unavailable', `${this.base} closed the connection before answering ${method.toUpperCase()} ${rel}: ${(err as Error).message}`, {
          cause: err,
        });
      throw new DocsError('unavailable', `cannot reach ${this.base}: ${(err as Error).message}`, { cause: err });
    } finally {
      this.lastUsed = Date.now();
    }
    const text = await res.body.text();
    this.lastUsed = Date.now();
    let parsed: unknown;
    // Server-sent events (ask): the list of their data, as in process.
    if (res.statusCode < 300 && /^text\/event-stream/.test(String(res.headers['content-type'] ?? ''))) parsed = sseEvents(text);
    else if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    const outHeaders: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') outHeaders[k] = v;
    return { status: res.statusCode, body: parsed, headers: outHeaders };
  }

  async call(operationId: string, input: OperationInput = {}): Promise<CallResult> {
    const op = operationSpec(operationId);
    const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const v = input.path?.[name];
      if (v === undefined || v === '') throw new DocsError('invalid', `${name}: is required`);
      return encodeURIComponent(v);
    });
    // Header parameters a command was given (only those the operation declares are sent).
    const headers: Record<string, string> = {};
    for (const p of op.parameters)
      if (p.in === 'header') {
        const v = Object.entries(input.headers ?? {}).find(([k]) => k.toLowerCase() === p.name.toLowerCase())?.[1];
        if (typeof v === 'string') headers[p.name] = v;
      }
    const result = await this.send(op.method, '/v1' + path, { query: input.query, body: input.body, headers });
    if (result.status >= 400) throw new DocsError(kindForStatus(result.status), errorMessage(result.status, result.body));
    return result;
  }

  async *stream(operationId: string, input: OperationInput = {}): AsyncIterable<unknown> {
    const { request } = await import('undici');
    const op = operationSpec(operationId);
    const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const v = input.path?.[name];
      if (v === undefined || v === '') throw new DocsError('invalid', `${name}: is required`);
      return encodeURIComponent(v);
    });
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (input.body !== undefined) headers['content-type'] = 'application/json';
    let res;
    try {
      res = await request(this.base + '/v1' + path + queryString(input.query), {
        method: op.method.toUpperCase() as any,
        headers,
        body: input.body === undefined ? undefined : JSON.stringify(input.body),
        headersTimeout: 60_000,
        bodyTimeout: 60_000,
      });
    } catch (err) {
      throw new DocsError('unavailable', `cannot reach ${this.base}: ${(err as Error).message}`, { cause: err });
    }
    if (res.statusCode >= 300 || !/^text\/event-stream/.test(String(res.headers['content-type'] ?? ''))) {
      const text = await res.body.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {}
      if (res.statusCode >= 400) throw new DocsError(kindForStatus(res.statusCode), errorMessage(res.statusCode, body));
      yield body;
      return;
    }
    // Messages end at a blank line; each `data:` line is one JSON event (`event: error`: the API's error body).
    let buffered = '';
    for await (const chunk of res.body) {
      buffered += chunk.toString('utf8');
      let end: number;
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        const message = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const event = parseMessage(message);
        if (event) yield event;
      }
    }
  }

  async download(url: string): Promise<Buffer> {
    const { request } = await import('undici');
    let res;
    try {
      res = await request(url, { method: 'GET', headersTimeout: 60_000, bodyTimeout: 60_000 });
    } catch (err) {
      throw new DocsError('unavailable', `cannot reach ${url}: ${(err as Error).message}`, { cause: err });
    }
    const bytes = Buffer.from(await res.body.arrayBuffer());
    if (res.statusCode >= 400) throw new DocsError(kindForStatus(res.statusCode), `download: HTTP ${res.statusCode} for ${url.split('?')[0]}`);
    return bytes;
  }

  async upload(url: string, bytes: Buffer): Promise<void> {
    const { request } = await import('undici');
    let res;
    try {
      res = await request(url, {
        method: 'PUT',
        body: bytes,
        headers: { 'content-type': 'application/octet-stream' },
        headersTimeout: 60_000,
        bodyTimeout: 60_000,
      });
    } catch (err) {
      throw new DocsError('unavailable', `cannot reach ${url.split('?')[0]}: ${(err as Error).message}`, { cause: err });
    }
    const text = await res.body.text();
    if (res.statusCode >= 400) throw new DocsError(kindForStatus(res.statusCode), errorMessage(res.statusCode, safeJson(text)));
  }

  /** The pool to send on: a new one when the last use is older than IDLE_CONNECTION_MS (the old one closes once its requests are done). */
  private async dispatcher(): Promise<import('undici').Agent> {
    const { Agent } = await import('undici');
    // Checked and swapped with no await in between: calls made together share one pool (one that
    // swapped it in must not see another close it before it sends).
    const now = Date.now();
    if (!this.agent || now - this.lastUsed > IDLE_CONNECTION_MS) {
      void this.agent?.close().catch(() => undefined);
      this.agent = new Agent();
    }
    this.lastUsed = now;
    return this.agent;
  }

  async close() {
    await this.agent?.close();
    this.agent = undefined;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
