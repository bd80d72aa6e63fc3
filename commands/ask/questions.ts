import * as Flags from '@oclif/core/flags';
import { DocsCommand } from '../_lib/base.js';
import { orgFlag, organizationOf } from '../_lib/org.js';

// `docs ask questions`: questions worth asking, from the questions asked most and page titles (docs/manual/ask.md#recommended-questions).

export default class AskQuestions extends DocsCommand {
  static operations = ['getRecommendedQuestionsInOrganization', 'streamRecommendedQuestionsInOrganization', 'streamRecommendedQuestionsInSite'];
  static summary = 'Recommended questions: the answered questions asked most, then page titles';
  static description =
    `GET /v1/orgs/{organizationId}/ask/questions (getRecommendedQuestionsInOrganization; --stream: its streamed form, streamRecommendedQuestionsInOrganization), or with --site, GET /v1/orgs/{organizationId}/sites/{siteId}/ask/questions (streamRecommendedQuestionsInSite).`;
  static examples = ['<%= config.bin %> ask questions', '<%= config.bin %> ask questions --site siteId123 --site-space siteSpaceId123 --json'];
  static flags = {
    org: orgFlag(),
    site: Flags.string({ description: 'questions of this site (id)' }),
    'site-space': Flags.string({ description: 'with --site: questions of this site space (id)' }),
    stream: Flags.boolean({ description: 'print each question as it arrives (server-sent events)' }),
  };

  async run(): Promise<unknown> {
    const { flags } = await this.parse(AskQuestions);
    const transport = await this.transport(flags);
    const organizationId = await organizationOf(flags, transport);
    let questions: string[] = [];
    if (flags.site || flags.stream) {
      const events = flags.site
        ? transport.stream('streamRecommendedQuestionsInSite', {
            path: { organizationId, siteId: flags.site },
            query: flags['site-space'] ? { siteSpaceId: flags['site-space'] } : {},
          })
        : transport.stream('streamRecommendedQuestionsInOrganization', { path: { organizationId } });
      for await (const e of events) {
        const q = (e as { question: string }).question;
        questions.push(q);
        if (!this.jsonEnabled()) this.log(q);
      }
    } else {
      questions = ((await transport.call('getRecommendedQuestionsInOrganization', { path: { organizationId } })).body as { questions: string[] }).questions;
      if (!this.jsonEnabled()) for (const q of questions) this.log(q);
    }
    if (!questions.length && !this.jsonEnabled()) this.log('No questions yet.');
    return { questions };
  }
}
