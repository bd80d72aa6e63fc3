import { exampleOf } from './schemas.js';
import type { ApiOperation, ApiSpec } from '../../urls/site/api-spec.js';

// Code samples of an operation: the spec's own (`x-codeSamples`, `x-code-samples`) first, then
// curl, JavaScript (fetch) and Python (requests) made from the operation: the first server, the
// path as the spec writes it (path parameters in braces), required query parameters with an
// example value, the auth header its security asks for, and an example body.

export interface Sample {
  lang: string;
  label: string;
  source: string;
}

const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function pyValue(v: unknown, indent = ''): string {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'None';
  if (typeof v === 'string') return JSON.stringify(v);
  const next = `${indent}    `;
  if (Array.isArray(v)) return v.length ? `[\n${v.map((x) => `${next}${pyValue(x, next)}`).join(',\n')}\n${indent}]` : '[]';
  const entries = Object.entries(v as object);
  return entries.length ? `{\n${entries.map(([k, x]) => `${next}${JSON.stringify(k)}: ${pyValue(x, next)}`).join(',\n')}\n${indent}}` : '{}';
}

/** The headers an operation's security asks for, with placeholders. */
export function authHeaders(spec: ApiSpec, op: ApiOperation): [string, string][] {
  const out: [string, string][] = [];
  for (const name of op.security) {
    const s = spec.securitySchemes[name];
    if (!s || typeof s !== 'object') continue;
    if ((s.type === 'http' && String(s.scheme).toLowerCase() === 'bearer') || s.type === 'oauth2' || s.type === 'openIdConnect')
      out.push(['Authorization', 'Bearer YOUR_SECRET_TOKEN']);
    else if (s.type === 'http' && String(s.scheme).toLowerCase() === 'basic') out.push(['Authorization', 'Basic YOUR_CREDENTIALS']);
    else if (s.type === 'apiKey' && s.in === 'header' && typeof s.name === 'string') out.push([s.name, 'YOUR_API_KEY']);
    if (out.length) break; // the first scheme that can be written as a header
  }
  return out;
}

/** The request body's media type and example, when the operation has one. */
export function bodyExample(spec: ApiSpec, op: ApiOperation): { type: string; value: unknown } | undefined {
  if (!op.body) return undefined;
  const types = Object.keys(op.body.content);
  const type = types.find((t) => /json/i.test(t)) ?? types[0];
  if (!type) return undefined;
  const media = op.body.content[type] ?? {};
  const named = media.examples && typeof media.examples === 'object' ? Object.values<any>(media.examples)[0] : undefined;
  const value = media.example ?? named?.value ?? exampleOf(spec, media.schema);
  return { type, value: value ?? {} };
}

export function requestUrl(spec: ApiSpec, op: ApiOperation): string {
  const query = op.params
    .filter((p) => p.in === 'query' && p.required)
    .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(String(p.example ?? exampleOf(spec, p.schema) ?? 'value'))}`);
  return `${spec.servers[0] ?? ''}${op.path}${query.length ? `?${query.join('&')}` : ''}`;
}

export function samplesOf(spec: ApiSpec, op: ApiOperation): Sample[] {
  const url = requestUrl(spec, op);
  const method = op.method.toUpperCase();
  const headers = authHeaders(spec, op);
  for (const p of op.params) if (p.in === 'header' && p.required) headers.push([p.name, String(p.example ?? exampleOf(spec, p.schema) ?? 'value')]);
  const body = bodyExample(spec, op);
  const json = body && /json/i.test(body.type);
  if (body) headers.push(['Content-Type', body.type]);
  const bodyText = body ? (typeof body.value === 'string' ? body.value : JSON.stringify(body.value, null, 2)) : undefined;

  const curl = [`curl -L \\`, `  --request ${method} \\`, `  --url ${sh(url)}${headers.length || bodyText !== undefined ? ' \\' : ''}`];
  headers.forEach(([k, v], i) => curl.push(`  --header ${sh(`${k}: ${v}`)}${i < headers.length - 1 || bodyText !== undefined ? ' \\' : ''}`));
  if (bodyText !== undefined) curl.push(`  --data ${sh(bodyText)}`);

  const hdrs = Object.fromEntries(headers);
  const jsOpts = [`  method: ${JSON.stringify(method)}`];
  if (headers.length) jsOpts.push(`  headers: ${JSON.stringify(hdrs, null, 2).replace(/\n/g, '\n  ')}`);
  if (body) jsOpts.push(`  body: ${json ? `JSON.stringify(${JSON.stringify(body.value, null, 2).replace(/\n/g, '\n  ')})` : JSON.stringify(bodyText)}`);
  const js = `const response = await fetch(${JSON.stringify(url)}, {\n${jsOpts.join(',\n')}\n});\n\nconst data = await response.json();`;

  const pyArgs = [`    ${JSON.stringify(url)}`];
  if (headers.length) pyArgs.push(`    headers=${pyValue(hdrs, '    ')}`);
  if (body) pyArgs.push(json ? `    json=${pyValue(body.value, '    ')}` : `    data=${JSON.stringify(bodyText)}`);
  const py = `import requests\n\nresponse = requests.${op.method === 'delete' || op.method === 'get' || op.method === 'post' || op.method === 'put' || op.method === 'patch' || op.method === 'head' || op.method === 'options' ? op.method : 'request'}(\n${op.method === 'trace' ? `    "TRACE",\n` : ''}${pyArgs.join(',\n')}\n)\n\ndata = response.json()`;

  return [
    ...op.samples,
    { lang: 'bash', label: 'curl', source: curl.join('\n') },
    { lang: 'javascript', label: 'JavaScript', source: js },
    { lang: 'python', label: 'Python', source: py },
  ];
}
