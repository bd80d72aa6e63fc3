import { operationCommand } from '../_lib/operation-command.js';

// `docs styleguides check SITE --space S`: a check run of the site's spaces against its style guide (docs/manual/styleguides.md#check-runs).
export default operationCommand({
  operationId: 'createSiteStyleguideRun',
  description: "Check up to three of a site's spaces against its style guide: findings kept on the run, terms fixed in a draft change request per space",
  examples: [
    '<%= config.bin %> styleguides check szK9Qp2mTtR4bLx0aVn1 --space sp1AbCdEfGhIjKlMnOpQ',
    '<%= config.bin %> styleguides check szK9Qp2mTtR4bLx0aVn1 --space sp1AbCdEfGhIjKlMnOpQ --space sp2AbCdEfGhIjKlMnOpQ --json',
  ],
  orgFlag: true,
  summary: (b) => {
    const run = b.run ?? {};
    const crs = (b.changeRequests ?? []).map((cr: any) => `#${cr.number} (${cr.styleguide?.changedPages ?? 0} pages changed)`).join(', ');
    return `✓ Style guide run ${run.id}: ${run.findingsTotal ?? 0} findings; change requests ${crs || 'none'}`;
  },
});
