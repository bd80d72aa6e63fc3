import { DocsError } from '../../src/kernel/errors.js';
import { DocsCommand } from '../_lib/base.js';
import { profilesConf } from '../_lib/profiles-store.js';

export default class Logout extends DocsCommand {
  static summary = 'Forget a saved login (the current one by default)';
  static examples = ['<%= config.bin %> auth logout', '<%= config.bin %> auth logout --profile staging'];

  async run() {
    const { flags } = await this.parse(Logout);
    const conf = await profilesConf();
    const name = flags.profile ?? conf.get('current');
    if (!name || !conf.has(`profiles.${name}`)) throw new DocsError('not_found', name ? `profile ${name} not found` : 'not logged in');
    conf.delete(`profiles.${name}` as any);
    if (conf.get('current') === name) conf.delete('current');
    if (!this.jsonEnabled()) this.log(`Logged out of profile ${name}.`);
    return { profile: name };
  }
}
