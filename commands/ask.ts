import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { DocsCommand } from './_lib/base.js';
import { orgFlag, organizationOf } from './_lib/org.js';

// `docs ask "question"`: an answer from the documentation, quoted with its sources, streamed to
// the terminal as the server composes it (docs/manual/ask.md).

interface AnswerEvent {
  answer: { answer: { markdown?: string }; sources: { space: string; page: string }[]; followupQuestions: string[] };
}

export default class Ask extends DocsCommand {
  static operations = ['askInOrganization', 'streamAskInOrganization', 'streamAskInSite'];
  static summary = 'Ask a question of the documentation: an answer quoted from the pages you can read, with its sources';
  static description =
    `Streams the answer as it is composed: GET /v1/orgs/{organizationId}/ask/stream (streamAskInOrganization), or with --site, POST /v1/orgs/{organizationId}/sites/{siteId}/ask (streamAskInSite). --json prints the whole answer once (askInOrganization, or the last streamed event's answer for a site).
Without a configured model, the answer quotes the best passages the search engine finds (the same question gives the same answer); with one (DOCS_ASK_LLM_URL on the server), the model writes it from the same passages. A question with no good source gets an answer saying so. Site questions are counted (docs ask questions --site).`;
  static examples = [
    '<%= config.bin %> ask "How do I get a refund?"',
    '<%= config.bin %> ask "How do I get a refund?" --site siteId123 --json',
    '<%= config.bin %> ask "express shipping" --site siteId123 --scope all',
  ];
  static args = { question: Args.string({ description: 'the question (at most 512 characters)', required: true }) };
  static flags = {
    org: orgFlag(),
    site: Flags.string({ description: 'ask this site (id): its content, as its scope says' }),
    scope: Flags.string({
      description: "with --site: 'default' (each section's default content) or 'all' (every site space)",
      options: ['default', 'all'],
      default: 'default',
    }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(Ask);
    const transport = await this.transport(flags);
    const organizationId = await organizationOf(flags, transport);
    if (!flags.site && this.jsonEnabled()) {
      return (await transport.call('askInOrganization', { path: { organizationId }, query: { format: 'markdown' }, body: { query: args.question } })).body;
    }
    const events = flags.site
      ? transport.stream('streamAskInSite', {
          path: { organizationId, siteId: flags.site },
          query: { format: 'markdown' },
          body: { question: args.question, scope: { mode: flags.scope } },
        })
      : transport.stream('streamAskInOrganization', { path: { organizationId }, query: { query: args.question, format: 'markdown' } });
    let shown = '';
    let last: AnswerEvent | undefined;
    for await (const e of events) {
      last = e as AnswerEvent;
      if (this.jsonEnabled()) continue;
      // Each event is the whole answer so far: print what is new.
      const text = last.answer.answer.markdown ?? '';
      const fresh = text.startsWith(shown) ? text.slice(shown.length) : `\n${text}`;
      if (fresh.trim()) this.log(fresh.replace(/^\n+/, '') + '\n');
      shown = text;
    }
    if (this.jsonEnabled()) return last ? { answer: last.answer } : {};
    if (last?.answer.sources.length) this.log(`Sources: ${last.answer.sources.map((s) => `${s.space}/${s.page}`).join(', ')}`);
    if (last?.answer.followupQuestions.length) this.log(`Related: ${last.answer.followupQuestions.join(' · ')}`);
    return last;
  }
}
