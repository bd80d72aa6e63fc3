import * as Flags from '@oclif/core/flags';
import { DocsError } from '../../src/kernel/errors.js';

// The channel's setup from flags: --type and --allow (the allow list under the key its type names).
const KEYS: Record<string, string> = { slack: 'allowedChannels', discord: 'allowedChannels', linear: 'allowedTeams', github: 'allowedRepositories' };

export const setupFlags = {
  type: Flags.string({ description: 'The tool the agent works in', options: Object.keys(KEYS) }),
  allow: Flags.string({
    description: 'A place it may act in (a Slack or Discord channel, a Linear team key, a GitHub owner/repository; * matches any text); none: everywhere',
    multiple: true,
  }),
};

/** Puts {type, setupSettings} in the body from --type and --allow (--allow needs --type). */
export function setupBody(body: Record<string, unknown>, flags: Record<string, any>) {
  if (flags.allow && !flags.type) throw new DocsError('invalid', '--allow: give --type too (the allow list is the setup of a type)');
  if (!flags.type) return;
  body.type = `builtin:${flags.type}`;
  body.setupSettings = flags.allow ? { [KEYS[flags.type]!]: flags.allow } : {};
}
