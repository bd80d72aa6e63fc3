import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { DocsCommand } from '../_lib/base.js';
import { renderList } from '../_lib/render.js';
import { DocsError } from '../../src/kernel/errors.js';

interface Ev {
  id: string;
  createdAt: string;
  status: string;
  installationId?: string;
  payload: { type: string };
}

const line = (e: Ev) =>
  `${e.createdAt}  ${e.payload.type.padEnd(22)} ${e.status.padEnd(7)} ${e.id}${e.installationId ? `  installation ${e.installationId}` : ''}`;

export default class Events extends DocsCommand {
  static operations = ['listIntegrationEvents'];
  static summary = 'List the events of an integration, newest first; --follow prints new ones as they arrive';
  static description = `API: GET /v1/integrations/{integrationName}/events (listIntegrationEvents).
--follow prints the latest events oldest first, then polls and prints each new one until interrupted (Ctrl-C), or until --max new events were printed. With --json, one event per line. --follow needs a server (docs serve on the data directory, or --api-url): in-process, this command would hold the data directory and nothing else could record events.`;
  static examples = [
    '<%= config.bin %> integrations events slack',
    '<%= config.bin %> integrations events slack --follow',
    '<%= config.bin %> integrations events slack --follow --json --max 1 --api-url http://127.0.0.1:7780',
  ];
  static args = { integrationName: Args.string({ description: 'The integration (its name, e.g. my-integration)', required: true }) };
  static flags = {
    limit: Flags.integer({ description: 'How many events to show (at most 1000)', default: 20, min: 1, max: 1000 }),
    follow: Flags.boolean({ char: 'f', description: 'Keep printing new events until interrupted' }),
    interval: Flags.integer({ description: 'Milliseconds between polls with --follow', default: 1000, min: 50 }),
    max: Flags.integer({ description: 'With --follow: stop after this many new events', min: 1 }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(Events);
    const transport = await this.transport(flags);
    if (flags.follow && !transport.remote) throw new DocsError('invalid', 'follow: needs a server (run docs serve on this data directory, or give --api-url)');
    const fetch = async (limit: number) =>
      (await transport.call('listIntegrationEvents', { path: args, query: { limit } })).body as { items: Ev[]; count: number };
    const first = await fetch(flags.limit);
    if (!flags.follow) {
      if (!this.jsonEnabled()) {
        const table = await renderList(
          first.items.map((e) => ({ ...e, type: e.payload.type })),
          ['id', 'type', 'status', 'installationId', 'createdAt'],
          'No events.',
        );
        if (table) this.log(table);
      }
      return first;
    }
    const print = (e: Ev) => process.stdout.write((this.jsonEnabled() ? JSON.stringify(e) : line(e)) + '\n');
    const seen = new Set(first.items.map((e) => e.id));
    [...first.items].reverse().forEach(print);
    let stop = false;
    const interrupt = () => (stop = true);
    process.once('SIGINT', interrupt);
    process.once('SIGTERM', interrupt);
    let printed = 0;
    try {
      while (!stop) {
        await new Promise((r) => setTimeout(r, flags.interval));
        // Newest first: everything not seen before on the first page is new (a page of 1000 covers any burst between polls).
        const fresh = (await fetch(1000)).items.filter((e) => !seen.has(e.id)).reverse();
        for (const e of fresh) {
          seen.add(e.id);
          print(e);
          if (flags.max && ++printed >= flags.max) stop = true;
          if (stop) break;
        }
      }
    } finally {
      process.off('SIGINT', interrupt);
      process.off('SIGTERM', interrupt);
    }
    return undefined; // printed as it went: nothing more for --json to print
  }
}
