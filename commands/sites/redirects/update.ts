import { destinationFlag, destinationOf } from '../../_lib/redirect-destination.js';
import { normaliseSource } from '../../../src/sites/redirects.js';
import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateSiteRedirectById',
  description: 'Change a redirect of a site: its source, destination, permanence or draft state',
  examples: ['<%= config.bin %> sites redirects update szK9Qp2mTtR4bLx0aVn1 rdrQ8vXa1ZtY6HcMbR2p --permanent'],
  orgFlag: true,
  flags: { destination: destinationFlag(false) },
  prepare: async (req, _f, transport) => {
    // `old/page/` is `/old/page`: the source as the server stores it (a bad one is named by --source).
    if (typeof req.body?.source === 'string') req.body.source = normaliseSource(req.body.source, '--source');
    if (req.body?.destination !== undefined)
      req.body.destination = await destinationOf(String(req.body.destination), transport, req.path.organizationId!, req.path.siteId!);
  },
  summary: (b) => `✓ Updated redirect ${b.source} (${b.id})${b.permanent ? ' (permanent: 301)' : ' (302)'}${b.draft ? ' as a draft' : ''}`,
});
