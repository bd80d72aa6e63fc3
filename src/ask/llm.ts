import { DocsError } from '../kernel/errors.js';
import type { Passage } from '../search/service.js';
import { mdText, type BuiltAnswer } from './answer.js';

// An answer written by a model, when the operator configured one: an OpenAI-compatible chat
// completions endpoint (DOCS_ASK_LLM_URL, with DOCS_ASK_LLM_MODEL and DOCS_ASK_LLM_API_KEY), the
// operator's own choice like the translator's URL (src/translations/translator.ts), so the guard
// of user-chosen URLs does not apply; a timeout does. The model is given the same passages the
// extractive answer quotes and told to answer from them only; the answer still lists them as its
// sources. A model that fails or times out: the extractive answer, as without one.
// docs/manual/ask.md#with-a-model

export interface LlmConfig {
  url: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
}

const DEFAULT_TIMEOUT_MS = 20_000;
/** The longest answer read from the endpoint. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** The configured endpoint, or undefined when DOCS_ASK_LLM_URL is not set. */
export function configuredLlm(env: NodeJS.ProcessEnv = process.env): LlmConfig | undefined {
  const url = env.DOCS_ASK_LLM_URL?.trim();
  if (!url) return undefined;
  try {
    if (!['http:', 'https:'].includes(new URL(url).protocol)) throw new Error();
  } catch {
    throw new DocsError('invalid', `DOCS_ASK_LLM_URL: must be an http(s) URL (got ${url})`);
  }
  const ms = Number(env.DOCS_ASK_LLM_TIMEOUT_MS ?? DEFAULT_TIMEOUT_MS);
  return {
    url,
    model: env.DOCS_ASK_LLM_MODEL?.trim() || 'default',
    apiKey: env.DOCS_ASK_LLM_API_KEY || undefined,
    timeoutMs: Number.isFinite(ms) && ms > 0 ? ms : DEFAULT_TIMEOUT_MS,
  };
}

/** Counters (tests): calls made, and failures that fell back to the extractive answer. */
export const llmStats = { calls: 0, failures: 0 };

/** The model's answer from the quoted passages (then a list of the sources), or undefined without a model or when it failed. */
export async function generatedAnswer(
  question: string,
  built: BuiltAnswer,
  linkOf: (p: Passage) => string,
  config = configuredLlm(),
  /** The site's instructions for agents (its agent settings: docs/manual/site-agents.md#agent-settings), after the server's own. */
  instructions?: string,
): Promise<{ parts: string[]; model: string } | undefined> {
  if (!config || !built.sources.length) return undefined;
  llmStats.calls++;
  const context = built.sources
    .map((s, i) => `[${i + 1}] ${s.passage.pageTitle}${s.passage.title !== s.passage.pageTitle ? ` › ${s.passage.title}` : ''}\n${s.passage.body}`)
    .join('\n\n');
  try {
    const text = await complete(config, [
      {
        role: 'system',
        content:
          'Answer the question from the numbered documentation passages only, citing them as [1], [2]. If they do not answer it, say so. Answer in markdown, briefly.' +
          (instructions ? `\n\nThe site's instructions:\n\n${instructions}` : ''),
      },
      { role: 'user', content: `Passages:\n\n${context}\n\nQuestion: ${question}` },
    ]);
    const list = built.sources.map((s, i) => `${i + 1}. [${mdText(s.passage.pageTitle)}](${linkOf(s.passage)})`).join('\n');
    return { parts: [text.trim(), `Sources:\n\n${list}`], model: config.model };
  } catch {
    llmStats.failures++;
    return undefined;
  }
}

async function complete(config: LlmConfig, messages: { role: string; content: string }[]): Promise<string> {
  const { request } = await import('undici');
  const endpoint = new URL('chat/completions', config.url.endsWith('/') ? config.url : config.url + '/').toString();
  const res = await request(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) },
    body: JSON.stringify({ model: config.model, messages, temperature: 0, stream: false }),
    signal: AbortSignal.timeout(config.timeoutMs),
  });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of res.body) {
    size += c.length;
    if (size > MAX_ANSWER_BYTES) {
      res.body.destroy();
      throw new Error(`answer larger than ${MAX_ANSWER_BYTES} bytes`);
    }
    chunks.push(c);
  }
  if (res.statusCode < 200 || res.statusCode > 299) throw new Error(`HTTP ${res.statusCode}`);
  const json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const content = json?.choices?.[0]?.message?.content;
  if (typeof content !== 'string' || !content.trim()) throw new Error('no choices[0].message.content');
  return content;
}
