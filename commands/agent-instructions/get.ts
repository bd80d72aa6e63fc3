import { documentToMarkdown } from '../../src/documents/markdown.js';
import { DocsCommand } from '../_lib/base.js';
import { spin } from '../_lib/operation-command.js';
import { orgFlag, organizationOf } from '../_lib/org.js';

export default class AgentInstructionsGet extends DocsCommand {
  static operations = ['getOrganizationAgentInstructions'];
  static summary = "Show the organization's Docs agent instructions, as markdown";
  static description = 'API: GET /v1/orgs/{organizationId}/agent-instructions (getOrganizationAgentInstructions). --json prints the API body (a Document).';
  static examples = [
    '<%= config.bin %> agent-instructions get',
    '<%= config.bin %> agent-instructions get --org r55bjk0VeuQGpJpb7mcG > instructions.md',
    '<%= config.bin %> agent-instructions get --json',
  ];
  static flags = { org: orgFlag() };

  async run(): Promise<unknown> {
    const { flags } = await this.parse(AgentInstructionsGet);
    const transport = await this.transport(flags);
    const organizationId = await organizationOf(flags, transport);
    const { body } = await spin(transport.remote, 'GET agent-instructions', () =>
      transport.call('getOrganizationAgentInstructions', { path: { organizationId } }),
    );
    const r = body as { instructions: { nodes: unknown[] }; updatedAt: string; updatedBy: string };
    if (!this.jsonEnabled()) {
      process.stdout.write(documentToMarkdown(r.instructions));
      process.stderr.write(`(updated ${r.updatedAt} by ${r.updatedBy})\n`);
    }
    return body;
  }
}
