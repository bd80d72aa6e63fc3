import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { DocsError } from '../../src/kernel/errors.js';
import { TEMPLATES } from '../../src/content/templates.js';
import { DocsCommand } from '../_lib/base.js';

export default class TemplatesApply extends DocsCommand {
  static operations = ['applyTemplateToSpace'];
  static summary = 'Add the pages of a built-in template to a space (or to one of its change requests)';
  static description =
    `API: POST /v1/spaces/{spaceId}/content/template (applyTemplateToSpace). Templates: ${TEMPLATES.map((t) => `${t.id} (${t.title}; refs: ${Object.keys(t.refs).join(', ')})`).join('; ')}.`;
  static examples = [
    '<%= config.bin %> templates apply getting-started --space dHD9ZmkOPnfy9hWCsaQB --ref repository=https://github.com/acme/app',
    '<%= config.bin %> templates apply faq --space dHD9ZmkOPnfy9hWCsaQB --ref support=https://acme.com/help --change-request 3',
  ];
  static args = {
    templateId: Args.string({
      description: 'The template (its ID; asked for on a terminal when left out)',
      required: true,
      options: TEMPLATES.map((t) => t.id),
    }),
  };
  static flags = {
    space: Flags.string({ description: 'The space (its ID)', required: true }),
    ref: Flags.string({ description: 'a content ref NAME=URL (a URL, or page:<id> / file:<id>)', multiple: true }),
    'change-request': Flags.string({ description: 'apply into this change request (id) instead of the space' }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(TemplatesApply);
    const contentRefs: Record<string, unknown> = {};
    for (const r of flags.ref ?? []) {
      const m = /^(\w+)=(.+)$/.exec(r);
      if (!m) throw new DocsError('invalid', `ref: "${r}" is not NAME=VALUE`);
      const v = m[2]!;
      contentRefs[m[1]!] = v.startsWith('page:')
        ? { kind: 'page', page: v.slice(5) }
        : v.startsWith('file:')
          ? { kind: 'file', file: v.slice(5) }
          : { kind: 'url', url: v };
    }
    const transport = await this.transport(flags);
    const body = { id: args.templateId, params: { contentRefs }, ...(flags['change-request'] ? { changeRequestId: flags['change-request'] } : {}) };
    await transport.call('applyTemplateToSpace', { path: { spaceId: flags.space }, body });
    if (!this.jsonEnabled())
      this.log(`Applied template ${args.templateId} to ${flags['change-request'] ? `change request ${flags['change-request']}` : `space ${flags.space}`}.`);
    return { applied: args.templateId };
  }
}
