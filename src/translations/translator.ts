import { DocsError } from '../kernel/errors.js';

// The Translator port: what a translation run needs from a translation service. The one real
// implementation calls a LibreTranslate-compatible HTTP API at the URL the operator configures
// (DOCS_TRANSLATOR_URL). That URL is the operator's own choice, so the SSRF guard of fetched
// user URLs does not apply; timeouts and failures still do, and end up in the run's error.

export interface Translator {
  /** For people: where texts are sent. */
  readonly name: string;
  /** The texts in `to`, in the same order; `from`/`to` are the contract's language codes. */
  translate(texts: string[], from: string, to: string, signal?: AbortSignal): Promise<string[]>;
}

export class TranslatorError extends Error {
  constructor(
    readonly code: 'TRANSLATOR_ERROR' | 'TRANSLATOR_TIMEOUT',
    message: string,
  ) {
    super(message);
  }
}

/** Texts per request: LibreTranslate takes an array in `q`; large runs are sent in slices. */
const BATCH = 50;
const DEFAULT_TIMEOUT_MS = 30_000;
/** An answer larger than this is refused unread: 50 texts translated never come near it. */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

// LibreTranslate's own codes where they differ from the contract's (Brazilian Portuguese).
const LIBRE_CODES: Record<string, string> = { 'pt-br': 'pb' };

export class LibreTranslate implements Translator {
  constructor(
    private readonly url: string,
    private readonly apiKey: string | undefined,
    private readonly timeoutMs: number,
    private readonly maxBytes = MAX_ANSWER_BYTES,
  ) {}

  get name(): string {
    return this.url;
  }

  async translate(texts: string[], from: string, to: string, signal?: AbortSignal): Promise<string[]> {
    const out: string[] = [];
    for (let i = 0; i < texts.length; i += BATCH) out.push(...(await this.batch(texts.slice(i, i + BATCH), from, to, signal)));
    return out;
  }

  private async batch(q: string[], from: string, to: string, signal?: AbortSignal): Promise<string[]> {
    const { request } = await import('undici');
    const endpoint = new URL('translate', this.url.endsWith('/') ? this.url : this.url + '/').toString();
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const body = JSON.stringify({
      q,
      source: LIBRE_CODES[from] ?? from,
      target: LIBRE_CODES[to] ?? to,
      format: 'text',
      ...(this.apiKey ? { api_key: this.apiKey } : {}),
    });
    let res;
    try {
      res = await request(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (err) {
      if (timeout.aborted) throw new TranslatorError('TRANSLATOR_TIMEOUT', `translator ${endpoint}: no answer within ${this.timeoutMs} ms`);
      throw new TranslatorError('TRANSLATOR_ERROR', `translator ${endpoint}: ${(err as Error).message}`);
    }
    let text: string | undefined;
    try {
      text = await readCapped(res.body, this.maxBytes);
    } catch (err) {
      if (timeout.aborted) throw new TranslatorError('TRANSLATOR_TIMEOUT', `translator ${endpoint}: no answer within ${this.timeoutMs} ms`);
      throw new TranslatorError('TRANSLATOR_ERROR', `translator ${endpoint}: ${(err as Error).message}`);
    }
    if (text === undefined) throw new TranslatorError('TRANSLATOR_ERROR', `translator ${endpoint}: answer larger than ${this.maxBytes} bytes`);
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (res.statusCode < 200 || res.statusCode > 299) {
      const why = typeof json?.error === 'string' ? json.error : text.slice(0, 200);
      throw new TranslatorError('TRANSLATOR_ERROR', `translator ${endpoint} answered ${res.statusCode}: ${why}`);
    }
    const got = json?.translatedText;
    const list = q.length === 1 && typeof got === 'string' ? [got] : got;
    if (!Array.isArray(list) || list.length !== q.length || !list.every((t) => typeof t === 'string')) {
      throw new TranslatorError('TRANSLATOR_ERROR', `translator ${endpoint}: answer has no translatedText with ${q.length} text${q.length === 1 ? '' : 's'}`);
    }
    return list;
  }
}

/** The body as text, or undefined (and the body dropped) once it passes `max` bytes. */
async function readCapped(body: AsyncIterable<Buffer> & { destroy(): unknown }, max: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > max) {
      body.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The configured translator, or undefined when DOCS_TRANSLATOR_URL is not set. */
export function configuredTranslator(env: NodeJS.ProcessEnv = process.env): Translator | undefined {
  const url = env.DOCS_TRANSLATOR_URL?.trim();
  if (!url) return undefined;
  try {
    if (!['http:', 'https:'].includes(new URL(url).protocol)) throw new Error();
  } catch {
    throw new DocsError('invalid', `DOCS_TRANSLATOR_URL: must be an http(s) URL (got ${url})`);
  }
  const ms = Number(env.DOCS_TRANSLATOR_TIMEOUT_MS ?? DEFAULT_TIMEOUT_MS);
  return new LibreTranslate(url, env.DOCS_TRANSLATOR_API_KEY || undefined, Number.isFinite(ms) && ms > 0 ? ms : DEFAULT_TIMEOUT_MS);
}
