import * as Flags from '@oclif/core/flags';
import { DocsError } from '../../src/kernel/errors.js';
import { HttpTransport } from '../../src/transport/http.js';
import { DocsCommand } from '../_lib/base.js';
import { profilesConf } from '../_lib/profiles-store.js';

export default class Login extends DocsCommand {
  static operations = ['getAuthenticatedUser'];
  static summary = 'Save a login to an API server (verified with GET /user)';
  static examples = [
    '<%= config.bin %> auth login --api-url http://127.0.0.1:7780 --token gb_api_...',
    '<%= config.bin %> auth login --profile staging --api-url https://docs.example.com --token $TOKEN',
  ];
  static flags = {
    // Required here, unlike for other commands (where they are optional overrides).
    'api-url': Flags.string({ description: 'API server URL', required: true, env: 'DOCS_API_URL' }),
    token: Flags.string({ description: 'Bearer token', env: 'DOCS_TOKEN' }),
    profile: Flags.string({ description: 'Name to save the login under', default: 'default' }),
  };

  async run() {
    const { flags } = await this.parse(Login);
    let token = flags.token;
    if (!token) {
      if (!process.stdin.isTTY || !process.stdout.isTTY) throw new DocsError('invalid', 'token: is required (--token or DOCS_TOKEN)');
      const { password } = await import('@inquirer/prompts');
      token = await password({ message: 'Token:' });
    }
    const user = (await new HttpTransport(flags['api-url'], token).call('getAuthenticatedUser')).body as { id: string; email: string; displayName: string };
    const conf = await profilesConf();
    conf.set(`profiles.${flags.profile}`, { apiUrl: flags['api-url'], token, user: user.email });
    conf.set('current', flags.profile);
    if (!this.jsonEnabled()) this.log(`Logged in to ${flags['api-url']} as ${user.displayName} <${user.email}> (profile ${flags.profile}).`);
    return { profile: flags.profile, apiUrl: flags['api-url'], user };
  }
}
