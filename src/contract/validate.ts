import type { ErrorObject, ValidateFunction } from 'ajv';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { invalid } from '../kernel/errors.js';
import { packageRoot } from '../kernel/root.js';
import type { JsonSchema, OperationSpec } from './spec.js';
import { unknownField } from './strict-fields.js';
import { requireCached } from './cached-module.js';

// Input is validated once, at the boundary, with the contract's own schemas (ajv). Validators
// are precompiled at build (scripts/build-validators.mjs) and loaded per operation on first use:
// a CLI call loads only what it runs. Compiling here is the fallback for a missing build output.

const require = createRequire(import.meta.url);
type AjvCtor = new (opts: object) => { compile(s: JsonSchema): ValidateFunction };
const engines = new Map<string, { compile(s: JsonSchema): ValidateFunction }>();

function engine(dialect: OperationSpec['dialect'], coerce: boolean) {
  const key = dialect + coerce;
  let ajv = engines.get(key);
  if (!ajv) engines.set(key, (ajv = newEngine(dialect, coerce)));
  return ajv;
}

function newEngine(dialect: OperationSpec['dialect'], coerce: boolean, extra: object = {}) {
  const Ajv: AjvCtor = dialect === '2020-12' ? require('ajv/dist/2020').default : require('ajv').default;
  const instance = new Ajv({
    strict: false, // the spec carries OpenAPI annotations (readOnly, deprecated, ...)
    allErrors: false,
    coerceTypes: coerce ? 'array' : false, // path and query values arrive as strings
    useDefaults: coerce,
    validateFormats: true,
    ...extra,
  }) as any;
  require('ajv-formats').default(instance);
  // The same formats as the precompiled validators (scripts/contract-formats.cjs).
  const { custom, sizes } = require(join(packageRoot(), 'generated', 'contract', 'formats.cjs'));
  for (const f of sizes) instance.addFormat(f, true);
  for (const [name, f] of Object.entries(custom)) instance.addFormat(name, f);
  return instance as { compile(s: JsonSchema): ValidateFunction };
}

export interface OperationInput {
  path?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
  /**
   * Request headers (the server passes the request's; a transport, those a command was given).
   * Only the operation's declared header parameters (e.g. 0.146.0's `X-GitBook-Partner-Key`) are
   * read and handed to its handler, under their lower-case names; every other header stays here.
   */
  headers?: Record<string, string | string[] | undefined>;
}

/** Valid input, of no operation in particular (a handler sees its operation's: OperationRequest in src/kernel/operation.ts). */
export interface ValidInput {
  path: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  /** The operation's declared header parameters that were sent, by lower-case name. */
  headers: Record<string, string>;
}

interface Compiled {
  path: ValidateFunction;
  query: ValidateFunction;
  body?: ValidateFunction;
  /** Top-level body fields, when the body is a plain object schema (see `knownFields`). */
  fields?: Set<string>;
}

/**
 * The fields a plain object body declares. The spec leaves `additionalProperties` open, but a
 * field we do not know is a typo or a feature we lack: refusing it (400) beats silently
 * ignoring it, e.g. a PATCH that changes nothing and says 200. Composed bodies (oneOf/anyOf/
 * allOf) are left to their schema.
 */
function knownFields(op: OperationSpec): Set<string> | undefined {
  let s = op.requestBody?.schema;
  for (let i = 0; s?.$ref && i < 10; i++) s = op.components.schemas[String(s.$ref).split('/').pop()!];
  if (s?.type !== 'object' || !s.properties || s.additionalProperties !== undefined || s.oneOf || s.anyOf || s.allOf) return undefined;
  return new Set(Object.keys(s.properties));
}
const compiled = new Map<string, Compiled>();

/**
 * Bodies whose fields are checked at every depth, not only the top (strict-fields.ts): the
 * customizations, where a nested typo ("styling.primaryColour") would be stored and change
 * nothing. The spec does not forbid extra fields there; we refuse them (docs/manual/sites.md).
 */
export const STRICT_BODIES = new Set(['updateSiteCustomizationById', 'overrideSiteSpaceCustomizationById']);

function paramsSchema(op: OperationSpec, where: 'path' | 'query'): JsonSchema {
  const ps = op.parameters.filter((p) => p.in === where);
  return {
    type: 'object',
    properties: Object.fromEntries(ps.map((p) => [p.name, p.schema])),
    required: ps.filter((p) => p.required || where === 'path').map((p) => p.name),
    components: op.components,
  };
  // (scripts/build-validators.mjs builds the same schema, without unused components.)
}

/**
 * Path and query validators precompiled at build (scripts/build-validators.mjs), so a call
 * without a body never loads the ajv compiler; compiled here when the build did not make them.
 */
function paramValidators(op: OperationSpec): { path: ValidateFunction; query: ValidateFunction } {
  try {
    // With a code cache of their own, as the bodies' (cached-module.ts): the first request of an
    // operation in a process took ~1.4 ms of CPU to require, compile and first run them, ~0.7
    // with the cache (100 operations, one process; docs/manual/performance.md, "First requests").
    const generated = join(packageRoot(), 'generated', 'contract');
    return requireCached(join(generated, 'params', op.operationId + '.cjs'), join(generated, 'cache'));
  } catch {
    const params = engine(op.dialect, true);
    return { path: params.compile(paramsSchema(op, 'path')), query: params.compile(paramsSchema(op, 'query')) };
  }
}

function compile(op: OperationSpec): Compiled {
  let c = compiled.get(op.operationId);
  if (!c) {
    const { path, query } = paramValidators(op);
    c = { path, query, fields: knownFields(op) };
    compiled.set(op.operationId, c);
  }
  return c;
}

/** The body validator, loaded on first use (only writes need it); compiled when the build did not make it. */
function bodyValidator(op: OperationSpec, c: Compiled): ValidateFunction {
  if (c.body) return c.body;
  try {
    const generated = join(packageRoot(), 'generated', 'contract');
    c.body = requireCached(join(generated, 'bodies', op.operationId + '.cjs'), join(generated, 'cache')) as ValidateFunction;
  } catch {
    c.body = engine(op.dialect, false).compile({ ...op.requestBody!.schema, components: op.components });
  }
  return c.body;
}

/** Calls of loadBodyValidatorRuntime that loaded it (tests). */
export const bodyValidatorRuntime = { loads: 0 };

/**
 * Loads what the precompiled body validators share, as they require it: generated/contract/
 * formats.cjs (with ajv-formats' formats) and ajv's ucs2length. The first write with a body of a
 * process loaded them (~2 ms of CPU) besides its own validator; `docs serve`'s warm-up loads them
 * before it is ready (server/warm-up.ts). False when they could not be loaded (a validator then
 * loads them itself, or fails as before).
 */
export function loadBodyValidatorRuntime(): boolean {
  try {
    const from = createRequire(join(packageRoot(), 'generated', 'contract', 'bodies', 'index.cjs'));
    from('../formats.cjs');
    from('ajv/dist/runtime/ucs2length');
    bodyValidatorRuntime.loads++;
    return true;
  } catch {
    return false;
  }
}

/** "body.title: must NOT have more than 255 characters" — the field, then the rule. */
export function describe(where: string, e: ErrorObject): string {
  let field = where + e.instancePath.replace(/\//g, '.').replace(/~1/g, '/').replace(/~0/g, '~');
  let rule = e.message ?? 'is invalid';
  if (e.keyword === 'required') {
    field += (field ? '.' : '') + e.params.missingProperty;
    rule = 'is required';
  } else if (e.keyword === 'additionalProperties') {
    field += '.' + e.params.additionalProperty;
    rule = 'is not an accepted field';
  } else if (e.keyword === 'enum') {
    rule = 'must be one of ' + e.params.allowedValues.map((v: unknown) => JSON.stringify(v)).join(', ') + (e.params.partial ? ', …' : '');
  } else if (e.keyword === 'const') {
    rule = 'must be ' + JSON.stringify(e.params.allowedValue);
  }
  return `${field}: ${rule}`;
}

function check(fn: ValidateFunction, data: unknown, where: string) {
  if (!fn(data)) throw invalid(describe(where, deepest(fn.errors!)));
}

/**
 * The error to name. A oneOf (a change of updateChangeRequestContent: insert_files, update_page,
 * ...) reports each branch's first error, then its own. A branch that failed deeper in the body
 * is the one the body meant (`changes.0.files.0.name: must NOT have more than 256 characters`,
 * not the first branch's `changes.0.page: is required`), unless what failed there is a const or
 * an enum: a discriminator (`type: must be one of "none"`) says the body meant another branch.
 */
function deepest(errors: ErrorObject[]): ErrorObject {
  const depth = (e: ErrorObject) => e.instancePath.split('/').length;
  let best = errors[0]!;
  for (const e of errors) if (e.keyword !== 'const' && e.keyword !== 'enum' && depth(e) > depth(best)) best = e;
  if (best.keyword !== 'enum' && best.keyword !== 'const') return best;
  // Every branch refused the discriminator (an event `type` none of them has): name all the
  // values the branches accept there, not the first branch's alone.
  // A branch that failed before reaching it (a field it requires) adds values it cannot name: `…`.
  const allowed = new Set<unknown>();
  const parent = best.instancePath.slice(0, best.instancePath.lastIndexOf('/'));
  let partial = false;
  for (const e of errors) {
    if (e.instancePath === parent && e.keyword === 'required') partial = true;
    if (e.instancePath !== best.instancePath) continue;
    if (e.keyword === 'enum') for (const v of e.params.allowedValues) allowed.add(v);
    else if (e.keyword === 'const') allowed.add(e.params.allowedValue);
  }
  return allowed.size > 1 ? { ...best, keyword: 'enum', params: { allowedValues: [...allowed], partial } } : best;
}

/**
 * Bodies nest at most this deep. Schemas bound most bodies, but open ones (documents, `'*'`
 * bodies) would otherwise carry any depth into code that walks them recursively.
 */
export const MAX_BODY_DEPTH = 128;

function tooDeep(value: unknown): boolean {
  // Iterative: a hostile body must not be able to overflow the stack of the check itself.
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > MAX_BODY_DEPTH) return true;
    for (const child of Object.values(v as object)) if (child !== null && typeof child === 'object') stack.push([child, d + 1]);
  }
  return false;
}

/** " (did you mean primaryColor?)" for a field name close to a declared one, else the declared ones. */
function suggestion(name: string, known: string[]): string {
  const { closest, distance } = require('fastest-levenshtein') as typeof import('fastest-levenshtein');
  const best = known.length ? closest(name, known) : undefined;
  if (best && distance(name, best) <= Math.max(2, Math.floor(name.length / 4))) return ` (did you mean ${best}?)`;
  return known.length ? ` (accepted here: ${known.join(', ')})` : '';
}

/** Validates (and coerces path/query values) or throws a 400 naming the field and the rule. */
export function validateInput(op: OperationSpec, input: OperationInput, extraFields: readonly string[] = []): ValidInput {
  const c = compile(op);
  const path: Record<string, string> = { ...(input.path ?? {}) };
  const query: Record<string, unknown> = {};
  // Only the operation's declared query parameters are read; others are ignored, as HTTP APIs do.
  for (const p of op.parameters) if (p.in === 'query' && input.query?.[p.name] !== undefined) query[p.name] = input.query[p.name];
  check(c.path, path, 'path');
  check(c.query, query, 'query');
  // Header parameters: only the declared ones, read case-insensitively (HTTP header names are).
  const headers: Record<string, string> = {};
  for (const p of op.parameters) {
    if (p.in !== 'header') continue;
    const name = p.name.toLowerCase();
    const got = Object.entries(input.headers ?? {}).find(([k]) => k.toLowerCase() === name)?.[1];
    const v = Array.isArray(got) ? got[0] : got;
    if (v === undefined || v === '') {
      if (p.required) throw invalid(`header ${p.name}: is required`);
      continue;
    }
    if (v.length > 1024) throw invalid(`header ${p.name}: at most 1024 characters`);
    headers[name] = v;
  }
  const body = input.body;
  if (op.requestBody) {
    if (body === undefined) {
      if (op.requestBody.required) throw invalid('body: is required');
    } else {
      if (tooDeep(body)) throw invalid(`body: nested deeper than ${MAX_BODY_DEPTH} levels`);
      check(bodyValidator(op, c), body, 'body');
      if (STRICT_BODIES.has(op.operationId)) {
        const unknown = unknownField(op.requestBody.schema, body, op.components.schemas);
        if (unknown) throw invalid(`body.${unknown.path}: is not an accepted field${suggestion(unknown.path.split('.').pop()!, unknown.known)}`);
      }
      // '*': the operation's body is open (API.md says so); its handler reads what it knows.
      if (c.fields && !extraFields.includes('*'))
        for (const k of Object.keys(body as object))
          if (!c.fields.has(k) && !extraFields.includes(k)) throw invalid(`body.${k}: is not an accepted field (accepted: ${[...c.fields].join(', ')})`);
    }
  } else if (body !== undefined && body !== null && !(typeof body === 'object' && Object.keys(body as object).length === 0)) {
    throw invalid('body: this operation takes no request body');
  }
  return { path, query, body, headers };
}

const responseValidators = new Map<string, ValidateFunction>();

/**
 * Tests check thousands of answers against both specs, and used to compile each operation's
 * response schema with the operation's components inlined: every operation recompiled the
 * components it shares with the others (Space, Page, Document...), which was most of a test
 * file's CPU. Per spec, each component is now added once (`c:Name`, its refs rewritten to
 * point there) and compiled once, on first use; a response schema is compiled against them.
 */
interface SharedComponents {
  ajv: ReturnType<typeof engine>;
  added: Map<string, string>;
}
const sharedBySpec = new Map<string, SharedComponents>();
const COMPONENT_REF = /"\$ref":"#\/components\/schemas\//g;
const rebased = (schema: JsonSchema): JsonSchema => JSON.parse(JSON.stringify(schema).replace(COMPONENT_REF, '"$ref":"c:'));

/** The spec's engine with the operation's components added, or undefined if one differs from the one of that name already added. */
function sharedComponents(op: OperationSpec): SharedComponents | undefined {
  const key = `${op.source} ${op.dialect}`;
  let shared = sharedBySpec.get(key);
  if (!shared) sharedBySpec.set(key, (shared = { ajv: newEngine(op.dialect, false, { inlineRefs: false }), added: new Map() }));
  const fresh: [string, string][] = [];
  for (const [name, schema] of Object.entries(op.components?.schemas ?? {})) {
    const text = JSON.stringify(schema);
    const had = shared.added.get(name);
    if (had === undefined) fresh.push([name, text]);
    else if (had !== text) return undefined;
  }
  for (const [name, text] of fresh) {
    (shared.ajv as any).addSchema(JSON.parse(text.replace(COMPONENT_REF, '"$ref":"c:')), `c:${name}`);
    shared.added.set(name, text);
  }
  return shared;
}

/** For tests: checks a response body against the contract's schema for that status. */
export function responseProblem(op: OperationSpec, status: number, body: unknown): string | undefined {
  const r = op.responses[String(status)] ?? op.responses.default;
  if (!r) return `status ${status} is not a response of ${op.operationId} (has ${Object.keys(op.responses).join(', ')})`;
  if (!r.schema)
    return body === undefined || body === null || body === ''
      ? undefined
      : `status ${status} of ${op.operationId} has no body, got ${JSON.stringify(body).slice(0, 200)}`;
  // Keyed by the spec too: tests check one answer against both @gitbook/api versions.
  const key = op.source + ':' + op.operationId + ':' + status;
  let fn = responseValidators.get(key);
  if (!fn) {
    const shared = sharedComponents(op);
    fn = shared ? shared.ajv.compile(rebased(r.schema)) : engine(op.dialect, false).compile({ ...r.schema, components: op.components });
    responseValidators.set(key, fn);
  }
  return fn(body) ? undefined : describe('response', fn.errors![0]!);
}
