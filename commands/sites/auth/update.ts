import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateSitePublishingAuthById',
  description: "Set a site's sign-in backend: visitors of a visitor-auth site without a valid token are sent there (--fallback-url none unsets it)",
  examples: [
    '<%= config.bin %> sites auth update szK9Qp2mTtR4bLx0aVn1 --backend custom --fallback-url https://auth.example.com/login',
    '<%= config.bin %> sites auth update szK9Qp2mTtR4bLx0aVn1 --backend custom --fallback-url none',
  ],
  orgFlag: true,
  // The body is one of two backends plus the URL: its fields are not generated as flags.
  flags: {
    backend: Flags.string({
      description: 'Who signs visitor tokens: custom (your backend, with the site key)',
      options: ['custom', 'integration'],
      default: 'custom',
    }),
    'fallback-url': Flags.string({ description: 'The sign-in URL visitors without a valid token are sent to (none: unset it)' }),
  },
  prepare: (req, flags) => {
    req.body = { ...(req.body ?? {}), backend: flags.backend };
    // `none` unsets it (the API's null; docs/manual/site-delivery.md#publishing-auth).
    if (flags['fallback-url'] !== undefined) req.body.fallbackURL = flags['fallback-url'] === 'none' ? null : flags['fallback-url'];
  },
  summary: (b) =>
    `✓ Updated the visitor authentication of the site: ${b.fallbackURL ? `sign-in at ${b.fallbackURL}` : 'no sign-in backend (404 without a token)'}`,
});
