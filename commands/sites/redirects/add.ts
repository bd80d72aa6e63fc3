import { destinationFlag, destinationOf } from '../../_lib/redirect-destination.js';
import { normaliseSource } from '../../../src/sites/redirects.js';
import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'createSiteRedirect',
  description: 'Add a redirect to a site: a path that is not a page sends visitors elsewhere',
  examples: [
    '<%= config.bin %> sites redirects add szK9Qp2mTtR4bLx0aVn1 --source /old/setup --destination /guides/setup',
    '<%= config.bin %> sites redirects add szK9Qp2mTtR4bLx0aVn1 --source "/blog/*" --destination https://blog.example.com --capture-wildcard --permanent',
  ],
  orgFlag: true,
  flags: { destination: destinationFlag(true) },
  prepare: async (req, _f, transport) => {
    // `old/page/` is `/old/page`: the source as the server stores it (a bad one is named by --source).
    if (typeof req.body?.source === 'string') req.body.source = normaliseSource(req.body.source, '--source');
    req.body.destination = await destinationOf(String(req.body.destination), transport, req.path.organizationId!, req.path.siteId!);
  },
  summary: (b) => `✓ Added redirect ${b.source} (${b.id})${b.permanent ? ' (permanent: 301)' : ' (302)'}${b.draft ? ' as a draft' : ''}`,
});
