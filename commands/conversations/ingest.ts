import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { readFileSync } from 'node:fs';
import { DocsError } from '../../src/kernel/errors.js';
import type { Transport } from '../../src/transport/types.js';
import { DocsCommand } from '../_lib/base.js';
import { spin } from '../_lib/operation-command.js';
import { orgFlag, organizationOf } from '../_lib/org.js';
import { collectPages, type ListBody } from '../_lib/pages.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export default class ConversationsIngest extends DocsCommand {
  static operations = ['ingestConversation', 'listConversations'];
  static summary = 'Ingest conversations (one, or an array) from a JSON file or stdin (admins)';
  static description =
    `API: POST /v1/orgs/{organizationId}/conversations (ingestConversation). Each conversation: {id, subject?, metadata?: {url, attributes, createdAt}, parts: [{type: "message", role: "user" | "assistant" | "team-member", body}]}. Re-ingesting an id updates that conversation.
Processing (issues, clusters) runs off the request path: --wait waits until every conversation of the organization is processed. Without a server, --wait processes in this process; without --wait, an in-process ingest leaves them pending until \`docs serve\` (or another ingest --wait) runs on the data directory.`;
  static examples = [
    '<%= config.bin %> conversations ingest conversations.json --wait',
    'cat ticket.json | <%= config.bin %> conversations ingest - --org r55bjk0VeuQGpJpb7mcG',
    'DOCS_API_URL=http://127.0.0.1:7780 DOCS_TOKEN=$TOKEN <%= config.bin %> conversations ingest export.json',
  ];
  static args = { file: Args.string({ description: 'JSON file ("-": standard input)', required: true, ignoreStdin: true }) };
  static flags = {
    org: orgFlag(),
    wait: Flags.boolean({ description: 'Wait until the conversations are processed' }),
    timeout: Flags.integer({ description: 'Seconds --wait waits at most', default: 120, min: 1 }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(ConversationsIngest);
    if (args.file === '-' && process.stdin.isTTY) throw new DocsError('invalid', 'file: give a JSON file, or pipe the JSON into standard input');
    let body: unknown;
    try {
      body = JSON.parse(readFileSync(args.file === '-' ? 0 : args.file, 'utf8'));
    } catch (err) {
      throw new DocsError('invalid', `file: cannot read JSON from ${args.file === '-' ? 'standard input' : args.file}: ${(err as Error).message}`);
    }
    const count = Array.isArray(body) ? body.length : 1;
    const transport = await this.transport(flags);
    const organizationId = await organizationOf(flags, transport);
    if (flags.wait) transport.runWorkers?.(); // in-process: this process does the processing it waits for
    await spin(transport.remote, 'POST conversations', () => transport.call('ingestConversation', { path: { organizationId }, body }));
    if (!flags.wait) {
      if (!this.jsonEnabled()) {
        this.log(`Ingested ${count} conversation${count === 1 ? '' : 's'}: processing pending.`);
        if (!transport.remote)
          process.stderr.write('Note: no server holds this data directory: they are processed when `docs serve` runs on it, or by an ingest with --wait.\n');
      }
      return { ingested: count };
    }
    await waitProcessed(transport, organizationId, flags.timeout);
    if (!this.jsonEnabled()) this.log(`Ingested ${count} conversation${count === 1 ? '' : 's'}: processed.`);
    return { ingested: count, processed: true };
  }
}

/** Polls the organization's conversations until none waits for processing. */
async function waitProcessed(transport: Transport, organizationId: string, timeoutS: number): Promise<void> {
  const deadline = Date.now() + timeoutS * 1000;
  for (let delay = 50; ; delay = Math.min(delay * 2, 1000)) {
    const get = async (page?: string) =>
      (await transport.call('listConversations', { path: { organizationId }, query: { limit: 1000, ...(page ? { page } : {}) } })).body as ListBody<{
        processedAt?: string;
      }>;
    const waiting = (await collectPages(await get(), get)).items.filter((c) => !c.processedAt).length;
    if (!waiting) return;
    if (Date.now() + delay > deadline)
      throw new DocsError('unavailable', `conversations: ${waiting} still waiting for processing after ${timeoutS} s (see docs conversations list)`);
    await sleep(delay);
  }
}
