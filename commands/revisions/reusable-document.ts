import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getReusableContentDocumentInRevisionById',
  description: 'Show the body of a reusable content block, as it was in one revision, as a document (blocks)',
  examples: [
    '<%= config.bin %> revisions reusable-document dHD9ZmkOPnfy9hWCsaQB uGWWELvns4H2hi8k5YZ3 kR3mQ8vZpL2xW7tYb1Nc --json',
    "<%= config.bin %> revisions reusable-document dHD9ZmkOPnfy9hWCsaQB uGWWELvns4H2hi8k5YZ3 kR3mQ8vZpL2xW7tYb1Nc --jq '.nodes | length'",
  ],
});
