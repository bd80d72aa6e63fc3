import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { documentToMarkdown } from '../../src/documents/markdown.js';
import { DocsCommand } from '../_lib/base.js';
import { orgFlag, organizationOf } from '../_lib/org.js';

// `docs ask respond "message" --site SITE` and `docs ask respond --replay RESPONSE --site SITE`:
// a site's AI response, streamed (docs/manual/ask.md#ai-responses).

export default class AskRespond extends DocsCommand {
  static operations = ['streamAIResponseInSite', 'streamExistingAIResponseInSite'];
  static summary = "A site's AI response to a message (kept: --replay streams it again, --previous continues it)";
  static description =
    `POST /v1/orgs/{organizationId}/sites/{siteId}/ai/response (streamAIResponseInSite), or with --replay, GET /v1/orgs/{organizationId}/sites/{siteId}/ai/response/{responseId} (streamExistingAIResponseInSite). Prints the response as it is composed, then its id.`;
  static examples = [
    '<%= config.bin %> ask respond "How do I get a refund?" --site siteId123',
    '<%= config.bin %> ask respond --replay responseId123 --site siteId123 --json',
  ];
  static args = { message: Args.string({ description: 'the message (at most 2048 characters)' }) };
  static flags = {
    org: orgFlag(),
    site: Flags.string({ description: 'the site (id)', required: true }),
    previous: Flags.string({ description: 'continue from this response (id)' }),
    replay: Flags.string({ description: 'stream this kept response (id) again', exclusive: ['previous'] }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(AskRespond);
    if (!flags.replay && args.message === undefined) this.error('message: required (or --replay RESPONSE)', { exit: 2 });
    if (flags.replay && args.message !== undefined) this.error('message: not with --replay (a kept response is streamed as it was)', { exit: 2 });
    const transport = await this.transport(flags);
    const organizationId = await organizationOf(flags, transport);
    const path = { organizationId, siteId: flags.site };
    const events = flags.replay
      ? transport.stream('streamExistingAIResponseInSite', { path: { ...path, responseId: flags.replay } })
      : transport.stream('streamAIResponseInSite', {
          path,
          body: { input: [{ role: 'user', content: args.message }], ...(flags.previous ? { previousResponseId: flags.previous } : {}) },
        });
    const all: any[] = [];
    for await (const e of events as AsyncIterable<any>) {
      all.push(e);
      if (this.jsonEnabled()) continue;
      if (e.type === 'response_document') this.log(documentToMarkdown({ nodes: e.blocks }).trimEnd() + '\n');
      else if (e.type === 'response_followup_suggestion') this.log(`Related: ${e.suggestions.join(' · ')}`);
      else if (e.type === 'response_finish') this.log(`Response ${e.responseId ?? e.response?.id}`);
    }
    return all;
  }
}
