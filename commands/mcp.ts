import * as Flags from '@oclif/core/flags';
import { DocsCommand } from './_lib/base.js';

export default class Mcp extends DocsCommand {
  static summary = 'Serve the API to AI agents over MCP on stdio: one tool per operation';
  static description =
    'A Model Context Protocol server on stdin/stdout, for desktop and CLI agents. Tools are the API operations (named by operationId), called through the same transport as every command (the data directory, a running docs serve, or --api-url/--token) with the same validation and permissions. Pages are resources (docs://spaces/{id}/pages/{pageId}); agent instructions are the agent-instructions prompt.';
  static examples = [
    '<%= config.bin %> mcp',
    '<%= config.bin %> mcp --read-only --tools spaces,content,cr',
    '<%= config.bin %> mcp --api-url http://127.0.0.1:7780 --token $DOCS_TOKEN',
  ];
  static enableJsonFlag = false;
  static flags = {
    'read-only': Flags.boolean({ description: 'Only the operations that read (GET)' }),
    tools: Flags.string({ description: 'Only these areas, comma-separated (spaces, content, cr, sites, comments, ...)' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Mcp);
    const { runStdio } = await import('../src/mcp/stdio.js'); // the MCP SDK is loaded by this command only
    // stdout is the protocol's: notices (a new data directory's token) go to stderr.
    const options = {
      apiUrl: flags['api-url'],
      token: flags.token,
      data: flags.data,
      store: flags.store,
      profile: flags.profile,
      notice: (m: string) => process.stderr.write(m + '\n'),
    };
    await runStdio(options, { readOnly: flags['read-only'], areas: flags.tools?.split(',').filter(Boolean) }, this.config.version);
  }
}
