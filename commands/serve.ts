import * as Flags from '@oclif/core/flags';
import { normalOrigin } from '../server/cors.js';
import { serve } from '../server/serve.js';
import { settled } from '../server/settle.js';
import { DEFAULT_PORT } from '../src/open.js';
import { defaultDataDir } from '../src/transport/profiles.js';
import type { Context } from '../src/kernel/context.js';
import { DocsCommand } from './_lib/base.js';
import { Users } from '../src/users/tables.js';

/**
 * On an existing store the owner's token is not shown again: say how to get one. In-process
 * commands on this directory go through this server as its owner (the session token in the
 * owner-only lock file), so `docs tokens create` works while it runs.
 */
async function tokenHint(ctx: Context, where: string): Promise<string> {
  const { ownerOf } = await import('../src/auth/bootstrap.js');
  const owner = await ownerOf(ctx);
  const email = owner && (await ctx.store.read((tx) => tx.get(Users, owner)?.email));
  return `docs serve: a token for HTTP use: docs tokens create --user ${email ?? '<email>'} ${where} (run as this OS user; or docs auth token where you logged in)`;
}

export default class Serve extends DocsCommand {
  static summary = 'Serve the API (/v1) on the embedded store';
  static description =
    `Serves the GitBook v1 API on the embedded store. On an empty data directory it creates an owner user, an organization and a token, and prints them. While it runs, it holds the data directory: in-process CLI commands on that directory are sent to it.`;
  static examples = [
    '<%= config.bin %> serve',
    '<%= config.bin %> serve --port 8080 --data ./docs-data --quiet',
    'DOCS_BOOTSTRAP_TOKEN=ci-token <%= config.bin %> serve --port 0',
    '<%= config.bin %> serve --store postgres://docs@db.internal/docs --blobs /mnt/shared/docs-blobs --port 7781',
    '<%= config.bin %> serve --rate-limit 600',
    '<%= config.bin %> serve --host 0.0.0.0 --allowed-host docs.lan --cors http://localhost:5173',
    '<%= config.bin %> serve --allow-private-tunnels',
  ];
  static enableJsonFlag = false;
  static flags = {
    port: Flags.integer({ description: `Port to listen on (0 picks a free one)`, default: DEFAULT_PORT, min: 0, max: 65535 }),
    host: Flags.string({ description: 'Address to listen on', default: '127.0.0.1' }),
    quiet: Flags.boolean({ description: 'No log line per request' }),
    'git-root': Flags.string({
      description: 'Folder whose Git repositories Git import and export may reach by path (DOCS_GIT_ROOT); none without it',
      env: 'DOCS_GIT_ROOT',
    }),
    blobs: Flags.string({ description: 'With --store: the directory for file bytes, shared by every server of the store (default: --data)' }),
    'rate-limit': Flags.string({
      description:
        'Requests per minute per token, reported in X-RateLimit-* headers; 429 past it, or "off". Failed authentications are always limited per address',
      default: 'off',
    }),
    'allowed-host': Flags.string({
      description: 'Another host name accepted in Host headers (besides 127.0.0.1, localhost, [::1] and --host; others get 421)',
      multiple: true,
    }),
    cors: Flags.string({ description: 'An origin (scheme://host[:port]) given CORS headers and preflight answers (default: none)', multiple: true }),
    'allow-private-tunnels': Flags.boolean({
      description:
        "Let every user's integration development tunnel reach loopback and private addresses (by default only the instance owner's, set through the in-process CLI)",
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Serve);
    const rate = flags['rate-limit'];
    if (rate !== 'off' && !/^[1-9]\d{0,8}$/.test(rate))
      this.error(`--rate-limit: expected a positive number of requests per minute or "off", got ${JSON.stringify(rate)}`, { exit: 2 });
    const cors = (flags.cors ?? []).map(
      (o) => normalOrigin(o) ?? this.error(`--cors: expected an origin such as http://localhost:5173, got ${JSON.stringify(o)}`, { exit: 2 }),
    );
    // Git import/export reach local repositories only under this root (src/git/repo.ts).
    if (flags['git-root']) process.env.DOCS_GIT_ROOT = flags['git-root'];
    const dataDir = flags.blobs ?? flags.data ?? defaultDataDir();
    const served = await serve({
      dataDir,
      store: flags.store,
      port: flags.port,
      host: flags.host,
      rateLimit: rate === 'off' ? undefined : Number(rate),
      allowedHosts: flags['allowed-host'],
      cors,
      allowPrivateTunnels: flags['allow-private-tunnels'],
      loadAreas: true,
      // One request of its own and a read of each area before the ready line, the workers but the
      // search indexer after the first requests (server/warm-up.ts; docs/manual/performance.md).
      warmUp: true,
      deferWorkers: true,
      // The search thread started and the index files opened while the store opens (server/serve.ts).
      searchEarly: true,
      // The shards the previous server held loaded again before ready, within a budget (server/prewarm.ts).
      prewarm: true,
      log: flags.quiet ? undefined : (line) => process.stdout.write(line + '\n'),
    });
    if (served.bootstrapToken) this.log(`Created owner and organization. Token (shown once): ${served.bootstrapToken}`);
    if (!served.bootstrapToken) this.log(await tokenHint(served.ctx, flags.store ? `--store ${flags.store}` : `--data ${dataDir}`));
    const stopped = new Promise<void>((resolve) => {
      const stop = (signal: string) => {
        process.stderr.write(`docs serve: ${signal}, finishing in-flight requests\n`);
        served.close().then(resolve, (err) => {
          process.stderr.write(`docs serve: ${err.message}\n`);
          process.exitCode = 1;
          resolve();
        });
      };
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
    });
    // The start's trailing work done before the ready line, not beside a first request (server/settle.ts).
    await settled();
    this.log(`docs serve: API at ${served.url}/v1 (${flags.store ? `store: PostgreSQL, blobs: ${dataDir}` : `data: ${dataDir}`})`);
    await stopped;
  }
}
