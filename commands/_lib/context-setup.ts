import * as Flags from '@oclif/core/flags';
import { DocsError } from '../../src/kernel/errors.js';
import type { Transport } from '../../src/transport/types.js';

// A context connection's setup and usage from flags (docs/manual/site-context.md#connections-and-records):
// --connector (api and website are short for builtin:api and builtin:website), --url (a website's
// address), and the usage settings one flag each; the contract wants the three of them together,
// so the ones left out are the defaults (create) or the connection's current ones (update).

export const setupFlags = {
  connector: Flags.string({
    description: 'Where records come from: builtin:api (pushed with `records push`) or builtin:website (a site crawled by `sync`); api and website for short',
  }),
  url: Flags.string({ description: 'The address of the site a builtin:website connection reads (it and the pages of the same origin it links to)' }),
  search: Flags.boolean({ description: "Show the connection's records in search results", allowNo: true }),
  'change-requests': Flags.boolean({ description: "Use the connection's records to propose change requests", allowNo: true }),
  'search-boost': Flags.string({ description: 'Score adjustment of its records in search', options: ['x0.8', 'x1.0', 'x1.2'] }),
};

const connectorOf = (v: string) => (v.includes(':') ? v : `builtin:${v}`);

/** Puts {connector, setupSettings} and usageSettings in the body from the flags. */
export async function setupBody(
  body: Record<string, unknown>,
  flags: Record<string, any>,
  current?: () => Promise<{ connector: string; usageSettings: Record<string, unknown> }>,
): Promise<void> {
  if (flags.connector !== undefined || flags.url !== undefined) {
    if (flags.url !== undefined && flags.connector !== undefined && connectorOf(flags.connector) !== 'builtin:website')
      throw new DocsError('invalid', '--url: only a builtin:website connection has an address');
    body.connector = flags.connector !== undefined ? connectorOf(flags.connector) : 'builtin:website';
    if (flags.url !== undefined) body.setupSettings = { url: flags.url };
  }
  const usage = { search: flags.search, changeRequests: flags['change-requests'], searchBoost: flags['search-boost'] };
  if (Object.values(usage).every((v) => v === undefined)) return;
  const base = current ? (await current()).usageSettings : { changeRequests: true, search: true, searchBoost: 'x1.0' };
  body.usageSettings = { ...base, ...Object.fromEntries(Object.entries(usage).filter(([, v]) => v !== undefined)) };
}

/** The connection as it is (update: the usage settings the flags leave as they are). */
export const currentConnection = (transport: Transport, path: Record<string, string>) => async () =>
  (await transport.call('getSiteContextConnectionById', { path })).body as { connector: string; usageSettings: Record<string, unknown> };
