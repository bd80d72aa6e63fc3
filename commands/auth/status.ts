import { describeSelection } from '../../src/transport/select.js';
import { DocsCommand } from '../_lib/base.js';
import { renderObject } from '../_lib/render.js';

export default class Status extends DocsCommand {
  static operations = ['getAuthenticatedUser'];
  static summary = 'Show where commands go, as whom, and where the token comes from';
  static examples = ['<%= config.bin %> auth status', '<%= config.bin %> auth status --api-url http://127.0.0.1:7780 --token $DOCS_TOKEN --json'];

  async run() {
    const { flags } = await this.parse(Status);
    // Told before the call: what chose the destination and the token (the order of docs' own choice).
    // oclif fills a flag from its environment variable too: only a flag typed on the line counts as the flag.
    const typed = (name: string) => this.argv.some((a) => a === `--${name}` || a.startsWith(`--${name}=`));
    const given = <T>(name: string, value: T) => (typed(name) ? value : undefined);
    const selection = describeSelection({
      apiUrl: given('api-url', flags['api-url']),
      token: given('token', flags.token),
      data: given('data', flags.data),
      profile: flags.profile,
      store: given('store', flags.store),
    });
    const transport = await this.transport(flags);
    const user = (await transport.call('getAuthenticatedUser')).body as { id: string; email: string; displayName: string };
    const status = {
      target: transport.target,
      remote: transport.remote,
      via: selection.via,
      profile: selection.profile ?? null,
      tokenFrom: selection.tokenFrom,
      user,
    };
    if (!this.jsonEnabled()) {
      this.log(
        renderObject({
          target: status.target,
          via: selection.via,
          ...(selection.profile ? { profile: selection.profile } : {}),
          token: selection.tokenFrom,
          user: `${user.displayName} <${user.email}> (${user.id})`,
        }),
      );
      // Not logged in to any server: say so, so that acting as the local owner does not look like a login.
      if (!transport.remote && !selection.profile)
        this.log('Not logged in to a server: commands act on this data directory in-process (docs auth login --api-url URL --token TOKEN to use a server).');
    }
    return status;
  }
}
