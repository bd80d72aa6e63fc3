import { DocsError } from '../../src/kernel/errors.js';
import { currentProfile } from '../../src/transport/profiles.js';
import { DocsCommand } from '../_lib/base.js';

// `docs auth token`, as `gh auth token`: the bearer token commands send, alone on stdout, so a
// script can hand it to curl or another tool: --token / DOCS_TOKEN, else the saved login.
export default class Token extends DocsCommand {
  static summary = 'Print the token of the current login (for curl and other tools)';
  static examples = [
    '<%= config.bin %> auth token',
    'curl -H "Authorization: Bearer $(<%= config.bin %> auth token)" http://127.0.0.1:7780/v1/user',
    '<%= config.bin %> auth token --profile staging --json',
  ];

  async run(): Promise<{ token: string; source: string }> {
    const { flags } = await this.parse(Token);
    const profile = flags.token ? undefined : currentProfile(flags.profile);
    if (flags.profile && !profile) throw new DocsError('not_found', `profile ${flags.profile} not found (see docs auth login)`);
    const found = flags.token
      ? { token: flags.token, source: process.env.DOCS_TOKEN === flags.token ? 'DOCS_TOKEN' : '--token' }
      : profile
        ? { token: profile.token, source: `profile ${profile.name}` }
        : undefined;
    if (!found) {
      throw new DocsError(
        'unauthenticated',
        "not logged in: no --token, DOCS_TOKEN or saved login (in-process commands act as the data directory's owner and need none; see docs auth login)",
      );
    }
    if (!this.jsonEnabled()) this.log(found.token);
    return found;
  }
}
