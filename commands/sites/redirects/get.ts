import { normaliseSource } from '../../../src/sites/redirects.js';
import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getSiteRedirectBySource',
  description: 'Where a path of a site redirects to (the live redirect that answers it and its target URL)',
  examples: ['<%= config.bin %> sites redirects get szK9Qp2mTtR4bLx0aVn1 --source /old/setup'],
  orgFlag: true,
  prepare: (req) => {
    // `old/page/` is `/old/page`: the source as the server stores it (a bad one is named by --source).
    if (typeof req.query.source === 'string') req.query.source = normaliseSource(req.query.source, '--source');
  },
});
