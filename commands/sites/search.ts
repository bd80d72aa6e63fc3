import * as Flags from '@oclif/core/flags';
import { DocsError } from '../../src/kernel/errors.js';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'searchSiteContent',
  description: 'Search a site as its search box does (its site spaces as the audience sees them), in the spaces you may read',
  examples: [
    '<%= config.bin %> sites search szK9Qp2mTtR4bLx0aVn1 --query "refund policy"',
    '<%= config.bin %> sites search szK9Qp2mTtR4bLx0aVn1 --query install --site-space sspK3wPq8mLx2RtY7vBn --json',
    '<%= config.bin %> sites search szK9Qp2mTtR4bLx0aVn1 --query install --scope \'{"mode":"default","currentSiteSpace":"sspK3wPq8mLx2RtY7vBn"}\'',
  ],
  columns: ['title', 'score', 'pages.length'],
  orgFlag: true,
  flags: {
    query: Flags.string({ description: 'The words to search for (1 to 512 characters; every word must match)' }),
    scope: Flags.string({
      description:
        'Where to search, as JSON: {"mode":"all"} (the default), {"mode":"default"} (each section\'s default), {"mode":"specific","siteSpaceIds":[...]}',
      exclusive: ['site-space'],
    }),
    'site-space': Flags.string({ description: 'Search only these site spaces (their IDs; repeat the flag)', multiple: true }),
  },
  prepare(req, flags) {
    let scope: unknown = { mode: 'all' };
    if (flags['site-space']) scope = { mode: 'specific', siteSpaceIds: flags['site-space'] };
    else if (flags.scope !== undefined) {
      try {
        scope = JSON.parse(flags.scope);
      } catch {
        throw new DocsError('invalid', '--scope: must be JSON, like {"mode":"all"}');
      }
    }
    if (!req.body.scope && !req.body.mode) req.body = { ...req.body, scope };
  },
});
