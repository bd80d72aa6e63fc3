import type { Context } from '../kernel/context.js';
import { DocsError } from '../kernel/errors.js';
import { guardedLookup, loadIpaddr, REFUSED_CODE, refusedLiteral } from '../kernel/outbound-guard.js';
import type { IntegrationRecord } from './model.js';
import { cspHeader, deliversPrivate } from './delivery.js';
import { PRIVATE_TUNNEL_HINT } from './service.js';

// A request answered by the integration itself, now (docs/manual/integrations.md#ui-render-and-tasks):
// the UI render operations send the integration an event and return what it answers. This server
// runs no integration code, so the integration's endpoint is its development tunnel; with
// development mode off there is nothing to ask (412). The request goes through the outbound guard
// exactly as event delivery does (src/integrations/delivery.ts): loopback and private addresses
// only when the instance owner allowed them for this integration, or on a server started with
// --allow-private-tunnels. One attempt, with the delivery deadline; what the integration answers
// is returned only when it is a 2xx answer (JSON for a render); anything else is a 503 naming what went wrong.

/** The largest answer read from an integration (a ContentKit tree is small). */
export const MAX_ANSWER_BYTES = 1024 * 1024;

const timeoutMs = () => Number(process.env.DOCS_DELIVERY_TIMEOUT_MS) || 5000;

/** POSTs `payload` to the integration's endpoint and returns its JSON answer. */
export async function askIntegration(ctx: Context, i: IntegrationRecord, payload: Record<string, unknown>): Promise<unknown> {
  const { bytes } = await callIntegration(ctx, i, payload);
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new DocsError('unavailable', `integration ${i.name} did not answer: its answer is not JSON`);
  }
}

/** POSTs `payload` to the integration's endpoint; its 2xx answer's bytes and content type. */
export async function callIntegration(ctx: Context, i: IntegrationRecord, payload: Record<string, unknown>): Promise<{ bytes: Buffer; type?: string }> {
  if (!i.dev) {
    throw new DocsError(
      'precondition',
      `integration ${i.name} has no endpoint on this server: it answers only through its development tunnel (docs integrations dev ${i.name} --tunnel-url URL)`,
    );
  }
  const [{ request, Agent }, ip] = await Promise.all([import('undici'), loadIpaddr()]);
  const url = i.dev.tunnelUrl;
  const open = deliversPrivate(ctx, i);
  const failed = (why: string) => new DocsError('unavailable', `integration ${i.name} did not answer: ${why}`);
  const literal = open ? undefined : refusedLiteral(ip, new URL(url));
  if (literal) throw failed(`${literal}: refused (${PRIVATE_TUNNEL_HINT})`);
  const dispatcher = new Agent(open ? {} : { connect: { lookup: guardedLookup(ip, `refused (${PRIVATE_TUNNEL_HINT})`) as any } });
  try {
    const csp = cspHeader(i.contentSecurityPolicy);
    const res = await request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'docs-integration-dev',
        'x-docs-integration': i.name,
        ...(csp ? { 'content-security-policy': csp } : {}),
      },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(timeoutMs()),
      dispatcher,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of res.body) {
      size += c.length;
      if (size > MAX_ANSWER_BYTES) {
        res.body.destroy();
        throw failed(`its answer is larger than ${MAX_ANSWER_BYTES} bytes`);
      }
      chunks.push(c);
    }
    if (res.statusCode < 200 || res.statusCode >= 300) throw failed(`it answered ${res.statusCode}`);
    const type = res.headers['content-type'];
    return { bytes: Buffer.concat(chunks), ...(typeof type === 'string' ? { type } : {}) };
  } catch (err: any) {
    if (err instanceof DocsError) throw err;
    if (err?.code === REFUSED_CODE || err?.cause?.code === REFUSED_CODE) throw failed((err.cause?.code === REFUSED_CODE ? err.cause : err).message);
    const timedOut = err?.name === 'TimeoutError' || err?.cause?.name === 'TimeoutError';
    throw failed(timedOut ? `timed out after ${timeoutMs()} ms` : `${err?.code ?? err?.name ?? 'error'}: ${err?.message ?? err}`);
  } finally {
    await dispatcher.destroy();
  }
}
