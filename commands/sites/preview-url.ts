import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getSitePublishingPreviewById',
  description:
    "Where to preview a site: its draft structure in the app (default), or with --no-draft its published address, --claims as the visitor's unsigned claims",
  examples: [
    '<%= config.bin %> sites preview-url szK9Qp2mTtR4bLx0aVn1 --jq .url',
    "<%= config.bin %> sites preview-url szK9Qp2mTtR4bLx0aVn1 --no-draft --claims '(plan:pro)' --jq .url",
  ],
  summary: false,
  orgFlag: true,
  flags: {
    draft: Flags.boolean({ allowNo: true, description: "The draft, in the app (default); --no-draft: the published site's address" }),
    target: Flags.string({ description: 'A page of the site to preview (an address under its published address)' }),
    claims: Flags.string({ description: "The visitor's claims, rison: (plan:pro,beta:!t) (with --no-draft)" }),
    'site-space': Flags.string({ description: 'The site space to preview (its ID; default: the site)' }),
  },
});
