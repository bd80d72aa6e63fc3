import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { DocsError } from '../../src/kernel/errors.js';
import type { Transport } from '../../src/transport/types.js';
import { DocsCommand } from '../_lib/base.js';
import { startSpinner } from '../_lib/color.js';
import { spin } from '../_lib/operation-command.js';
import { orgFlag, organizationOf } from '../_lib/org.js';

type Translation = {
  id: string;
  status: string;
  result?: { space: string; revision: string };
  error?: { code: string; message: string };
  stats: { latestWords: number; latestPages: number };
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export default class TranslationsRun extends DocsCommand {
  static operations = ['runTranslation', 'getTranslation'];
  static summary = 'Run a translation: translate the source space into its target space';
  static description = `API: POST /v1/orgs/{organizationId}/translations/{translationId}/run (runTranslation), then GET with --wait.
With --wait, waits until the run ends (a spinner on a terminal): exit 0 when it completed; exit 1 when it failed (the reason on stderr) or --timeout passed. Without a server, --wait runs the translation in this process; without --wait, an in-process run stays pending until \`docs serve\` (or another run --wait) runs on the data directory. The server translates through DOCS_TRANSLATOR_URL; without it, every run fails with NO_TRANSLATOR.`;
  static examples = [
    '<%= config.bin %> translations run Tr4nsL8tI0nxYz123456 --wait',
    'DOCS_API_URL=http://127.0.0.1:7780 DOCS_TOKEN=$TOKEN <%= config.bin %> translations run Tr4nsL8tI0nxYz123456 --wait --timeout 600 --json',
  ];
  static args = { translationId: Args.string({ description: 'The translation (its ID)', required: true }) };
  static flags = {
    org: orgFlag(),
    wait: Flags.boolean({ description: 'Wait until the run ends' }),
    timeout: Flags.integer({ description: 'Seconds --wait waits at most', default: 300, min: 1 }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(TranslationsRun);
    const transport = await this.transport(flags);
    const path = { organizationId: await organizationOf(flags, transport), translationId: args.translationId };
    if (flags.wait) transport.runWorkers?.(); // in-process: this process runs what it waits for
    await spin(transport.remote, 'POST translations run', () => transport.call('runTranslation', { path }));
    if (!flags.wait) {
      if (!this.jsonEnabled()) {
        this.log(`Run of translation ${args.translationId} requested.`);
        if (!transport.remote)
          process.stderr.write('Note: no server holds this data directory: the run happens when `docs serve` runs on it, or with run --wait.\n');
      }
      return undefined;
    }
    const t = await waitForRun(transport, path, flags.timeout);
    if (t.error) {
      process.stderr.write(`Translation ${t.id} failed (${t.error.code}): ${t.error.message}\n`);
      process.exitCode = 1;
    } else if (!this.jsonEnabled()) {
      this.log(`Translated into space ${t.result!.space}, revision ${t.result!.revision} (${t.stats.latestPages} pages, ${t.stats.latestWords} words).`);
    }
    return t;
  }
}

/** Polls until the run ends: `completed`, or back to `pending` with the reason it failed. */
async function waitForRun(transport: Transport, path: Record<string, string>, timeoutS: number): Promise<Translation> {
  const deadline = Date.now() + timeoutS * 1000;
  const spinner = await startSpinner();
  try {
    for (let delay = 50; ; delay = Math.min(delay * 2, 1000)) {
      const t = (await transport.call('getTranslation', { path })).body as Translation;
      if (spinner) spinner.text = `translation ${t.id}: ${t.status}`;
      if (t.status === 'completed' || t.error) return t;
      if (Date.now() + delay > deadline)
        throw new DocsError('unavailable', `translation ${t.id}: still ${t.status} after ${timeoutS} s; not finished (see docs translations get ${t.id})`);
      await sleep(delay);
    }
  } finally {
    spinner?.stop();
  }
}
