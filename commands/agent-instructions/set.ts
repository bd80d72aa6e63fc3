import * as Args from '@oclif/core/args';
import { readFileSync } from 'node:fs';
import { markdownToDocument } from '../../src/documents/markdown.js';
import { DocsError } from '../../src/kernel/errors.js';
import { DocsCommand } from '../_lib/base.js';
import { spin } from '../_lib/operation-command.js';
import { orgFlag, organizationOf } from '../_lib/org.js';

export default class AgentInstructionsSet extends DocsCommand {
  static operations = ['updateOrganizationAgentInstructions'];
  static summary = "Replace the organization's Docs agent instructions with a markdown file or stdin (admins)";
  static description =
    'API: PUT /v1/orgs/{organizationId}/agent-instructions (updateOrganizationAgentInstructions). The markdown is converted to a Document (paragraphs, headings, lists, code, quotes, dividers; bold, italic, code, links).';
  static examples = [
    '<%= config.bin %> agent-instructions set instructions.md',
    'cat instructions.md | <%= config.bin %> agent-instructions set',
    '<%= config.bin %> agent-instructions set - --org r55bjk0VeuQGpJpb7mcG --json < instructions.md',
  ];
  static args = { file: Args.string({ description: 'Markdown file ("-" or left out: standard input)', required: false, ignoreStdin: true }) };
  static flags = { org: orgFlag() };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(AgentInstructionsSet);
    const file = args.file ?? '-';
    // Never wait on a terminal for text nobody is typing on purpose.
    if (file === '-' && process.stdin.isTTY) throw new DocsError('invalid', 'file: give a markdown file, or pipe the markdown into standard input');
    let markdown: string;
    try {
      markdown = readFileSync(file === '-' ? 0 : file, 'utf8');
    } catch (err) {
      throw new DocsError('invalid', `file: cannot read ${file === '-' ? 'standard input' : file}: ${(err as Error).message}`);
    }
    const instructions = await markdownToDocument(markdown);
    const transport = await this.transport(flags);
    const organizationId = await organizationOf(flags, transport);
    const { body } = await spin(transport.remote, 'PUT agent-instructions', () =>
      transport.call('updateOrganizationAgentInstructions', { path: { organizationId }, body: { instructions } }),
    );
    if (!this.jsonEnabled()) this.log(`Agent instructions updated (${instructions.nodes.length} blocks).`);
    return body;
  }
}
