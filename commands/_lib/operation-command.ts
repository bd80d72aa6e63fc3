import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { readFileSync } from 'node:fs';
import { operationSpec, type JsonSchema, type OperationSpec } from '../../src/contract/spec.js';
import { DocsError } from '../../src/kernel/errors.js';
import type { Transport } from '../../src/transport/types.js';
import { DocsCommand } from './base.js';
import { argName } from './cli-errors.js';
import { startSpinner } from './color.js';
import { confirmDestructive } from './confirm.js';
import { organizationOf, orgFlag } from './org.js';
import { allFlag, collectPages, moreHint, PAGE_DESCRIPTION, type ListBody } from './pages.js';
import { pick, pickerFor, select, type PickContext } from './pick.js';
import { changedLine, verbOf } from './changed.js';
import { checkRequest } from './request-check.js';
import { renderList, renderObject } from './render.js';

export interface OperationCommandDef {
  operationId: string;
  /** Other operations the command performs (e.g. in its `call`), beside operationId. */
  operations?: string[];
  /**
   * The same read on a change request's content (e.g. listPageLinksInChangeRequest beside
   * listPageLinksInSpace): adds `--change-request N` (number or id), which sends this operation instead.
   */
  changeRequestForm?: string;
  description?: string;
  /** Real invocations, shown by --help. */
  examples: string[];
  /** Table columns for list results (dot paths allowed). */
  columns?: string[];
  /**
   * The one line a write answering one object prints instead of the object (changed.ts): the
   * verb ("Created"; by default from the command's name, e.g. `spaces move` -> "Moved"), or a
   * function of the body and the request's body; false: show the object (key/value) as reads do.
   */
  summary?: false | string | ((body: any, sent: unknown) => string | undefined);
  /** Success line for operations answering without a body (a function: by status and path values). */
  done?: string | ((status: number, path: Record<string, string>) => string);
  /**
   * Deletes answering 204 ("did not exist") or 205 ("deleted"), as the contract words them: the
   * message of a 204, which then exits 3 (a script deleting the wrong id must notice).
   */
  missing?: (path: Record<string, string>) => string;
  /**
   * Destructive operations: on a terminal, ask this question (built from the path values) unless
   * --yes; elsewhere (CI, pipes) refuse without --yes (exit 2), see confirm.ts. Not called with
   * --yes: a question that reads the thing's name (names.ts) costs nothing then.
   */
  confirm?: (path: Record<string, string>, flags: Record<string, any>, transport: Transport) => string | undefined | Promise<string | undefined>;
  /**
   * Take `organizationId` from --org instead of a positional argument; when --org is left out
   * and the caller belongs to exactly one organization, that one is used.
   */
  orgFlag?: boolean;
  /**
   * For a path argument left out on a terminal: the choices of a picker (name shown, value
   * used) instead of a free-text prompt, e.g. the caller's spaces for `spaceId`.
   */
  choose?: Record<string, (transport: Transport) => Promise<{ name: string; value: string }[]>>;
  /** More flags, or replacements of generated ones (same name: the value still goes to that body field). */
  flags?: Record<string, any>;
  /**
   * In place of the one call (e.g. `cr list --status all`: one list per status): the answer, or
   * undefined to make the call as usual.
   */
  call?: (
    req: { path: Record<string, string>; query: Record<string, unknown>; body: any },
    flags: Record<string, any>,
    transport: Transport,
  ) => Promise<{ status: number; body: unknown } | undefined>;
  /**
   * Adds --dry-run: the operation runs on the server on a store whose writes are dropped
   * (POST /_docs/dry-run, src/dry-run.ts); this prints its answer (lines for the terminal).
   */
  dryRun?: (answer: any, path: Record<string, string>) => string[];
  /**
   * The operation's header parameters from the flags (e.g. adsListSites' X-GitBook-Partner-Key):
   * sent with the request, and checked with it against the contract before anything is sent.
   */
  headers?: (flags: Record<string, any>) => Record<string, string>;
  /** Last adjustments of the request from the flags (e.g. ids given as flags turned into the body's shape). */
  prepare?: (
    req: { path: Record<string, string>; query: Record<string, unknown>; body: any },
    flags: Record<string, any>,
    transport: Transport,
  ) => void | Promise<void>;
}

const kebab = (s: string) =>
  s
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/_/g, '-')
    .toLowerCase();
const RESERVED = new Set(['json', 'api-url', 'token', 'data', 'profile', 'input', 'help', 'yes', 'org']);

function resolve(op: OperationSpec, schema: JsonSchema | undefined): JsonSchema {
  let s = schema ?? {};
  for (let i = 0; s.$ref && i < 10; i++) s = op.components.schemas[String(s.$ref).split('/').pop()!] ?? {};
  if (s.allOf)
    return s.allOf.reduce((acc: JsonSchema, part: JsonSchema) => {
      const r = resolve(op, part);
      return { ...acc, ...r, properties: { ...acc.properties, ...r.properties } };
    }, {});
  return s;
}

/** Words for the query parameters the spec leaves undescribed ("--limit  limit" says nothing). */
const KNOWN: Record<string, string> = {
  limit: 'How many items a page holds (1 to 1000)',
  page: PAGE_DESCRIPTION,
  status: 'Only those with this status',
  creator: 'Only those created by this user (id)',
  contributor: 'Only those this user (id) contributed to',
  requestedReviewer: 'Only those waiting for the review of this user (id)',
  nested: 'Include the collections inside collections',
  metadata: 'Include page metadata',
  computed: 'Include computed content',
  format: 'Body format',
  role: 'Only members with this role',
  source: 'Only conversations from this source',
  conversationsIssuesCluster: 'Only those made from this conversations issues cluster (id)',
  cluster: 'Only those of this conversations issues cluster (id)',
  outdated: 'Only outdated reviews (--no-outdated: only current ones)',
  search: 'Only those matching this text',
  category: 'Only integrations of this category',
  blockDomain: 'Only integrations whose blocks unfurl links of this domain',
  blocks: 'Only integrations that provide blocks',
  contentSources: 'Only integrations that provide content sources',
  owner: 'Only those owned by this organization (id)',
  scope: 'Only integrations asking for this scope',
  order: 'Sort order (ascending or descending)',
  sort: 'Sort by this field',
  draft: 'Only the draft ones (--no-draft: only the live ones)',
  title: 'Only those whose title contains this text',
  withDefaultSite: 'Also create a default docs site',
  openapiUrl: 'Import the OpenAPI spec at this URL',
  shareKey: 'Key of a share link: see what a visitor holding it sees',
  default: 'Only the default one (--no-default: only the others)',
  unmasked: 'Show secret values unmasked',
  space: 'Only those publishing this space (id)',
  published: 'Only published ones (--no-published: only unpublished ones)',
  type: 'Only those of this type',
  url: 'The address (an absolute http(s) URL)',
  schema: 'Version of the document schema (current or next)',
  extended: 'Include each item in full (the space or site object, not only its id)',
  changeRequest: 'Only those importing into this change request (id or number)',
  site: 'Only those for this site (id)',
  orderBy: 'Sort by this (for the glossary: a language, entries by their term in it)',
  target: 'Only installations on this kind of target (organization, space or site)',
  request: 'The render request, JSON compressed with LZ-string (compressToEncodedURIComponent)',
  from: 'Only answers made at or after this time (ISO 8601)',
  to: 'Only answers made at or before this time (ISO 8601)',
  relevance: 'Only answers to questions of this relevance (repeatable)',
  channelType: 'Only answers given on this kind of channel (repeatable)',
  answered: 'Only answers that answered this much: yes, partially, no (repeatable)',
  topic: 'Only those of this site topic (id)',
  thread: 'Only the answers of this conversation (the id of any answer in it)',
  question: 'Only the answers to this question (id)',
  helpfulness: 'Only answers this helpful (low, medium, high)',
  'question.type': 'Only answers to questions of this type',
  language: 'Only answers in this language (ISO code; this server answers und)',
  hasChangeRequests: 'Only findings with a change request fixing them (--no-has-change-requests: only those without)',
  updatedAfter: 'Only those updated at or after this time (ISO 8601)',
  updatedBefore: 'Only those updated at or before this time (ISO 8601)',
  connection: 'Only the records of this context connection (id)',
};

/** Words for the body fields the spec leaves undescribed. */
const KNOWN_BODY: Record<string, string> = {
  title: 'Title (shown in lists and navigation)',
  redirects: 'The redirects as JSON (source, destination, intent...); --file builds them',
  language: 'Language of the content (code, e.g. en)',
  organization: 'Organization to install it in (id)',
  emails: 'Email addresses to invite (repeatable)',
  emailDomains: 'Email domains whose users may join (repeatable)',
  sso: 'Whether members sign in with SSO',
  ai: 'Whether AI features are on',
  inviteLinks: 'Whether invite links may be used',
  label: 'Name shown for the identity provider',
  entityID: 'Entity ID (issuer) of the identity provider',
  certificate: 'X.509 certificate of the identity provider (PEM)',
  ssoURL: 'Single sign-on URL of the identity provider',
  defaultTeam: 'Team that new SSO members join (id)',
  active: 'Whether the link works (--no-active disables it)',
  add: 'Members to add (user ids, repeatable)',
  remove: 'Members to remove (user ids, repeatable)',
  status: 'New status',
  defaultRole: 'Role given to new members',
  force: 'Go ahead even when the other side changed since the last sync (overwrites it)',
  role: 'Role to give',
  events: 'The events as JSON (an array of SiteInsightsEvent: type, session, location...)',
  limit: 'Rows to answer (1 to 1000, default 1000)',
  select: 'Columns to answer, as JSON (e.g. [{"column":"url"},{"column":"eventsCount"}])',
  where: 'Filters, as JSON (e.g. [{"column":"eventType","values":["page_view"]}])',
  groupBy: 'Columns to group by, as JSON (e.g. [{"column":"datetime","interval":"day"}])',
  operations: 'The operations as JSON: insert {translations}, update {id, translations}, delete {id}',
  range: 'Time range: lastYear, last3Months, last30Days, last7Days, last24Hours, or {"from","to"} as JSON',
  task: 'The task for the integration (JSON, delivered to it as is)',
  componentId: 'The component of the integration to render (id)',
  props: 'Properties of the component (JSON)',
  state: 'Local state of the component (JSON)',
};

const GUEST_ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guest'];

/** The body's top-level fields; for a body that is one of several object shapes, the fields of all. */
function bodyShape(op: OperationSpec, schema: JsonSchema): JsonSchema {
  const s = resolve(op, schema);
  if (s.properties || !(s.oneOf ?? s.anyOf)) return s;
  const properties = Object.assign({}, ...(s.oneOf ?? s.anyOf).map((b: JsonSchema) => resolve(op, b).properties ?? {}));
  return { type: 'object', properties };
}

function flagFor(op: OperationSpec, name: string, schema: JsonSchema, description: string | undefined, known: Record<string, string> = KNOWN) {
  // A role or null for a guest (MemberRoleOrGuest): `--role guest` sends null, as API.md words it.
  if (String(schema?.$ref ?? '').endsWith('/MemberRoleOrGuest')) {
    return Flags.string({
      description: (description ?? known[name] ?? inWords(name)).split('\n')[0] + ' (guest: no role)',
      options: GUEST_ROLES,
      parse: async (v) => (v === 'guest' ? null : v) as any,
    });
  }
  const s = resolve(op, schema);
  // A choice among string enums spread over oneOf branches (e.g. a role or "guest").
  const branches = (s.oneOf ?? s.anyOf ?? []).map((b: JsonSchema) => resolve(op, b));
  if (branches.length && branches.every((b: JsonSchema) => Array.isArray(b.enum) && b.enum.every((e: unknown) => typeof e === 'string'))) {
    return Flags.string({
      description: (description ?? s.description ?? known[name] ?? inWords(name)).split('\n')[0],
      options: branches.flatMap((b: JsonSchema) => b.enum),
    });
  }
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  const desc = (description ?? s.description ?? known[name] ?? inWords(name)).split('\n')[0];
  if (type === 'boolean') return Flags.boolean({ description: desc, allowNo: true });
  // limit: the page size of every list, an integer from 1 to 1000 (API.md; the spec's 0 is no page).
  const rule = name === 'limit' ? { ...s, type: 'integer', minimum: 1, maximum: 1000 } : s;
  if (type === 'integer' || type === 'number') return Flags.string({ description: desc, parse: async (v) => numberIn(rule, rule.type, v) as any });
  const items = type === 'array' ? resolve(op, s.items) : undefined;
  // Strings, repeatable (an item that may be a string too, e.g. an email or {email, role}); items
  // of object shapes only (a oneOf of objects without a type: insights events) are JSON below.
  const stringItems = (it: JsonSchema) =>
    it.type === 'string' ||
    (it.type === undefined &&
      !it.allOf &&
      !it.properties &&
      (!(it.oneOf ?? it.anyOf) || (it.oneOf ?? it.anyOf).some((b: JsonSchema) => resolve(op, b).type === 'string')));
  if (items && stringItems(items))
    return Flags.string({ description: desc, multiple: true, ...(items.enum ? { options: items.enum.filter((e: unknown) => typeof e === 'string') } : {}) });
  if (type === 'object' || type === 'array' || s.oneOf || s.anyOf)
    return Flags.string({
      description: desc + ' (JSON)',
      parse: async (v) => {
        try {
          return JSON.parse(v);
        } catch {
          throw new Error(`${name} must be JSON`);
        }
      },
    });
  return Flags.string({ description: desc, ...(s.enum ? { options: s.enum.filter((e: unknown) => typeof e === 'string') } : {}) });
}

/**
 * A number flag's value, checked as the contract words it: an integer where it asks for one,
 * within its minimum and maximum (a parse error names the flag: exit 2, nothing sent).
 */
export function numberIn(schema: JsonSchema, type: 'integer' | 'number', text: string): number {
  const n = /^\s*$/.test(text) ? NaN : Number(text);
  const { minimum: min, maximum: max, exclusiveMinimum: xmin, exclusiveMaximum: xmax } = schema;
  const low = typeof xmin === 'number' ? `more than ${xmin}` : min !== undefined ? (max !== undefined ? `from ${min}` : `at least ${min}`) : undefined;
  const high = typeof xmax === 'number' ? `less than ${xmax}` : max !== undefined ? (min !== undefined ? `to ${max}` : `at most ${max}`) : undefined;
  const rule = `must be ${type === 'integer' ? 'an integer' : 'a number'}${[low, high]
    .filter(Boolean)
    .map((r) => ' ' + r)
    .join('')}`;
  const ok =
    Number.isFinite(n) &&
    (type !== 'integer' || Number.isInteger(n)) &&
    (min === undefined || n >= min) &&
    (max === undefined || n <= max) &&
    (typeof xmin !== 'number' || n > xmin) &&
    (typeof xmax !== 'number' || n < xmax);
  if (!ok) throw new Error(`${rule}, got ${JSON.stringify(text)}`);
  return n;
}

/**
 * Builds the command of one operation: positional args from its path parameters, flags from its
 * query parameters and its body's top-level fields (or --input FILE for the whole body), one
 * transport call, then a table (lists) or a key/value view (objects); --json prints the body.
 */
export function operationCommand(def: OperationCommandDef) {
  const op = operationSpec(def.operationId);
  const allPathParams = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const pathParams = def.orgFlag ? allPathParams.filter((p) => p !== 'organizationId') : allPathParams;
  const queryFlags: Record<string, [string, any]> = {};
  for (const p of op.parameters.filter((p) => p.in === 'query')) queryFlags[kebab(p.name)] = [p.name, flagFor(op, p.name, p.schema, undefined)];
  const bodyFlags: Record<string, [string, any]> = {};
  const body = op.requestBody ? bodyShape(op, op.requestBody.schema) : undefined;
  for (const [prop, schema] of Object.entries<JsonSchema>(body?.properties ?? {})) {
    let name = kebab(prop);
    if (RESERVED.has(name) || queryFlags[name]) name = 'set-' + name;
    bodyFlags[name] = [prop, flagFor(op, prop, schema, schema.description, KNOWN_BODY)];
  }
  const flagDefs = Object.fromEntries([...Object.entries(queryFlags), ...Object.entries(bodyFlags)].map(([k, [, f]]) => [k, f]));
  Object.assign(flagDefs, def.flags);
  if (op.requestBody) flagDefs.input = Flags.string({ description: 'JSON file with the whole request body ("-" for stdin); other flags override its fields.' });
  if (def.confirm) flagDefs.yes = Flags.boolean({ char: 'y', description: 'Confirm without asking (required when not on a terminal)' });
  if (def.orgFlag) flagDefs.org = orgFlag();
  const paged = op.parameters.some((p) => p.in === 'query' && p.name === 'page') && !flagDefs.all;
  if (paged) flagDefs.all = allFlag();
  if (def.changeRequestForm)
    flagDefs['change-request'] = Flags.string({ char: 'c', description: "the change request's content (number or id) instead of the space's" });
  if (def.dryRun) flagDefs['dry-run'] = Flags.boolean({ description: 'Change nothing: say what would change (exit code as the real run)' });
  // One name for one thing across commands: `--space` is the flag of a space everywhere
  // (content push, pages...), so a generated `--space-id` answers to `--space` too, and a
  // repeatable `--spaces` to `--space` (as cr request-review's --users to --user).
  for (const [name, flag] of Object.entries<any>(flagDefs)) {
    const alias = name.endsWith('-id') ? name.slice(0, -3) : flag.multiple && /[^s]s$/.test(name) ? name.slice(0, -1) : undefined;
    if (alias && !flagDefs[alias] && !RESERVED.has(alias) && !Object.values<any>(flagDefs).some((f) => f.aliases?.includes(alias)))
      flagDefs[name] = { ...flag, aliases: [...(flag.aliases ?? []), alias] };
  }

  return class extends DocsCommand {
    static summary = def.description ?? op.summary;
    static description =
      `API: ${op.method} /v1${op.path} (${op.operationId})${def.changeRequestForm ? `, or with --change-request ${def.changeRequestForm}` : ''}.`;
    static operations = [op.operationId, ...(def.changeRequestForm ? [def.changeRequestForm] : []), ...(def.operations ?? [])];
    static examples = def.examples;
    static args = Object.fromEntries(
      pathParams.map((p) => [
        p,
        Args.string({ description: `${inWords(p)}${/Id$/.test(p) ? ' ID' : ''} (asked for on a terminal when left out)`, required: false }),
      ]),
    );
    static flags = flagDefs;

    async run(): Promise<unknown> {
      const { args, flags } = await this.parse(this.constructor as any);
      const f = flags as Record<string, any>;
      const path: Record<string, string> = {};
      const missing = pathParams.filter((p) => (args as any)[p] === undefined);
      if (missing.length && !(process.stdin.isTTY && process.stdout.isTTY)) throw missingArguments(missing, this.id);
      // The flags' values first (query, body, --input): a bad one fails before anything is sent.
      const query: Record<string, unknown> = {};
      for (const [flag, [name]] of Object.entries(queryFlags)) if (f[flag] !== undefined) query[name] = f[flag];
      let input: any;
      if (op.requestBody) {
        input = f.input ? readInput(f.input) : undefined;
        for (const [flag, [name]] of Object.entries(bodyFlags)) {
          if (f[flag] !== undefined) input = { ...(input ?? {}), [name]: f[flag] };
        }
        // No body flag given: an empty body, so that a required field is named by its flag
        // ("missing flag --title"), not by the API's words ("body: is required").
        if (input === undefined && op.requestBody.required) input = {};
      }
      const transport = await this.transport(f);
      // The organization first: the pickers of the arguments list in it.
      if (def.orgFlag) path.organizationId = await organizationOf(f, transport);
      for (const p of pathParams) path[p] = (args as any)[p] ?? (await this.ask(p, { transport, values: path, flags: f }));
      const req = { path, query, body: input, ...(def.headers ? { headers: def.headers(f) } : {}) };
      await def.prepare?.(req, f, transport);
      const operationId = def.changeRequestForm && f['change-request'] !== undefined ? def.changeRequestForm : op.operationId;
      if (operationId !== op.operationId) req.path = { ...req.path, changeRequestId: f['change-request'] };
      // Checked against the contract before the call: a bad value is named by its flag, nothing is sent.
      checkRequest(
        operationId,
        req,
        {
          query: Object.fromEntries(Object.entries(queryFlags).map(([flag, [name]]) => [name, `--${flag}`])),
          body: Object.fromEntries(
            Object.entries(bodyFlags)
              .filter(([flag]) => f[flag] !== undefined || !f.input)
              .map(([flag, [name]]) => [name, `--${flag}`]),
          ),
          bodySource: f.input ? `--input ${f.input}` : undefined,
        },
        this.id,
      );
      // Checked here, with the flags' names: the transport's own check (base.ts) would repeat it.
      this.unchecked.add(operationId);
      const question = def.confirm && !f.yes ? await def.confirm(path, f, transport) : undefined;
      if (question) await confirmDestructive(question, f.yes);
      if (def.dryRun && f['dry-run']) {
        const answer = (await transport.docs('POST', '/_docs/dry-run', { body: { operationId: op.operationId, path } })).body;
        if (!this.jsonEnabled()) this.log(def.dryRun(answer, path).join('\n'));
        return answer;
      }
      const result = await spin(
        transport.remote,
        `${op.method} ${op.path}`,
        async () => (await def.call?.(req, f, transport)) ?? transport.call(operationId, req),
      );
      if (paged && f.all && Array.isArray((result.body as ListBody)?.items)) {
        result.body = await collectPages(
          result.body as ListBody,
          async (page) => (await transport.call(operationId, { ...req, query: { ...req.query, page } })).body as ListBody,
        );
      }
      if (def.missing && result.status === 204) throw new DocsError('not_found', def.missing(path));
      if (!this.jsonEnabled()) await this.show(result.body, result.status, path, req.body);
      return result.body;
    }

    private async show(body: any, status: number, path: Record<string, string>, sent: unknown) {
      if (body === undefined || body === '') return this.log((typeof def.done === 'function' ? def.done(status, path) : def.done) ?? 'Done.');
      if (Array.isArray(body?.items)) {
        const table = await renderList(body.items, def.columns);
        if (table) this.log(table);
        moreHint(body);
        return;
      }
      const line = op.method !== 'GET' && typeof body === 'object' ? this.changed(body, sent, path) : undefined;
      this.log(line ?? (typeof body === 'object' ? renderObject(body) : String(body)));
    }

    /** A write's one line (changed.ts), when the def or the command's verb words it. */
    private changed(body: any, sent: unknown, path: Record<string, string>): string | undefined {
      if (def.summary === false) return undefined;
      if (typeof def.summary === 'function') return def.summary(body, sent);
      const verb = def.summary ?? verbOf(this.id);
      return verb ? changedLine(verb, body, sent, undefined, path) : undefined;
    }

    /** Prompts for a missing argument on a terminal: a picker (pick.ts) for ids, else a text prompt. */
    private async ask(name: string, ctx: PickContext): Promise<string> {
      const chooser = def.choose?.[name];
      if (chooser) return select(pickerFor(name)?.label ?? inWords(name), await chooser(ctx.transport));
      if (pickerFor(name)) return pick(name, ctx);
      const { input } = await import('@inquirer/prompts');
      return input({ message: `${inWords(name)}${/Id$/.test(name) ? ' ID' : ''}:`, required: true });
    }
  };
}

/** A parameter's name for people: "changeRequestId" -> "Change request", "specSlug" -> "Spec slug". */
export function inWords(name: string): string {
  const words = name
    .replace(/Id$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const missingArguments = (names: string[], id?: string) =>
  new DocsError('invalid', `missing argument${names.length === 1 ? '' : 's'} ${names.map(argName).join(', ')} (see docs ${id?.replace(/:/g, ' ')} --help)`);

function readInput(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file === '-' ? 0 : file, 'utf8'));
  } catch (err) {
    throw new DocsError('invalid', `--input: cannot read JSON from ${file === '-' ? 'standard input' : file}: ${(err as Error).message}`);
  }
}

/** An ora spinner on stderr while a remote call runs, only on a terminal. */
export async function spin<T>(remote: boolean, text: string, fn: () => Promise<T>): Promise<T> {
  const s = remote ? await startSpinner(text) : undefined;
  try {
    return await fn();
  } finally {
    s?.stop();
  }
}
