import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { readFileSync } from 'node:fs';
import { DocsError, kindForStatus } from '../src/kernel/errors.js';
import { DocsCommand } from './_lib/base.js';
import { spin } from './_lib/operation-command.js';
import { collectPages, type ListBody } from './_lib/pages.js';

/** Parses -f key=value: JSON values when they parse (numbers, booleans, objects), else strings. */
function field(raw: string): [string, unknown] {
  const i = raw.indexOf('=');
  if (i < 1) throw new DocsError('invalid', `--field: expected key=value, got ${raw}`);
  const value = raw.slice(i + 1);
  try {
    return [raw.slice(0, i), JSON.parse(value)];
  } catch {
    return [raw.slice(0, i), value];
  }
}

export default class Api extends DocsCommand {
  static summary = 'Send any API request through the current transport (like gh api)';
  static description =
    'PATH is relative to /v1. Fields go to the query string for GET and DELETE, to the JSON body otherwise. Prints the response body; exits with the code of its error status.';
  static examples = [
    '<%= config.bin %> api GET /user',
    '<%= config.bin %> api GET /orgs -f limit=5',
    '<%= config.bin %> api GET /orgs/r55bjk0VeuQGpJpb7mcG/spaces --paginate',
    '<%= config.bin %> api POST /orgs -f title="Acme Docs"',
    '<%= config.bin %> api POST /orgs --input org.json --api-url http://127.0.0.1:7780',
  ];
  static args = {
    method: Args.string({
      description: 'HTTP method',
      required: true,
      options: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'get', 'post', 'put', 'patch', 'delete'],
    }),
    path: Args.string({ required: true, description: 'path under /v1, e.g. /orgs' }),
  };
  static flags = {
    field: Flags.string({ char: 'f', multiple: true, description: 'key=value (repeatable)' }),
    input: Flags.string({ description: 'JSON file with the request body ("-" for stdin)' }),
    paginate: Flags.boolean({ description: 'GET a list: follow next.page to the end and print one list of every item' }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(Api);
    const method = args.method.toUpperCase();
    const fields = Object.fromEntries((flags.field ?? []).map(field));
    let body: any;
    try {
      body = flags.input ? JSON.parse(readFileSync(flags.input === '-' ? 0 : flags.input, 'utf8')) : undefined;
    } catch (err) {
      throw new DocsError('invalid', `--input: cannot read JSON from ${flags.input === '-' ? 'standard input' : flags.input}: ${(err as Error).message}`);
    }
    let query: Record<string, unknown> = {};
    if (method === 'GET' || method === 'DELETE') query = fields;
    else if (Object.keys(fields).length) body = { ...(body ?? {}), ...fields };
    const [pathname, search] = args.path.split('?');
    for (const [k, v] of new URLSearchParams(search ?? '')) query[k] = v;
    const transport = await this.transport(flags);
    if (flags.paginate && method !== 'GET') throw new DocsError('invalid', 'paginate: only for GET');
    const res = await spin(transport.remote, `${method} ${pathname}`, () => transport.request(method, pathname!, { query, body }));
    if (flags.paginate && res.status < 400 && Array.isArray((res.body as ListBody)?.items)) {
      res.body = await collectPages(res.body as ListBody, async (page) => {
        const next = await transport.request(method, pathname!, { query: { ...query, page }, body });
        if (next.status >= 400) throw new DocsError(kindForStatus(next.status), (next.body as any)?.error?.message ?? `HTTP ${next.status}`);
        return next.body as ListBody;
      });
    }
    if (res.status >= 400) {
      const message = (res.body as any)?.error?.message ?? `HTTP ${res.status}`;
      if (this.jsonEnabled()) process.stdout.write(JSON.stringify(res.body, null, 2) + '\n');
      process.stderr.write(`Error: ${message}\n`);
      process.exitCode = new DocsError(kindForStatus(res.status), message).exitCode;
      return undefined;
    }
    if (!this.jsonEnabled()) this.log(res.body === undefined ? `${res.status}` : JSON.stringify(res.body, null, 2));
    return res.body;
  }
}
