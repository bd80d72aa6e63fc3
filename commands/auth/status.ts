import { DocsCommand } from '../_lib/base.js';
import { renderObject } from '../_lib/render.js';

export default class Status extends DocsCommand {
  static summary = 'Show where commands go and as whom';
  static examples = ['<%= config.bin %> auth status', '<%= config.bin %> auth status --api-url http://127.0.0.1:7780 --token $DOCS_TOKEN --json'];

  async run() {
    const { flags } = await this.parse(Status);
    const transport = await this.transport(flags);
    const user = (await transport.call('getAuthenticatedUser')).body as { id: string; email: string; displayName: string };
    const status = { target: transport.target, remote: transport.remote, user };
    if (!this.jsonEnabled()) this.log(renderObject({ target: status.target, user: `${user.displayName} <${user.email}> (${user.id})` }));
    return status;
  }
}
