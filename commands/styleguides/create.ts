import { operationCommand } from '../_lib/operation-command.js';

// `docs styleguides create SITE`: the site's style guide, made once (docs/manual/styleguides.md).
export default operationCommand({
  operationId: 'createSiteStyleguideById',
  description: "Make a site's style guide (a space of its writing rules), from a template or blank; the same space when it has one",
  examples: [
    '<%= config.bin %> styleguides create szK9Qp2mTtR4bLx0aVn1 --template plain-language',
    '<%= config.bin %> styleguides create szK9Qp2mTtR4bLx0aVn1 --json',
  ],
  orgFlag: true,
  summary: (b) => `✓ Style guide of the site: space "${b.title}" (${b.id}) ${b.urls?.app ?? ''}`.trim(),
});
