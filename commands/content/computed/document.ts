import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getComputedDocument',
  description:
    "Compute a document from a source (builtin:openapi: a spec's operations, tag, info or models; builtin:translation: a page's translation), without storing it",
  examples: [
    '<%= config.bin %> content computed document dHD9ZmkOPnfy9hWCsaQB --source \'{"type":"builtin:openapi","dependencies":{"spec":{"ref":{"kind":"openapi","spec":"petstore"}}},"props":{"doc":"models"}}\' --seed s1',
    '<%= config.bin %> content computed document dHD9ZmkOPnfy9hWCsaQB --source \'{"type":"builtin:openapi","dependencies":{"spec":{"ref":{"kind":"openapi","spec":"petstore"}}},"props":{"doc":"operations","page":"pets"}}\' --json',
  ],
  summary: false,
  // The seed only names ids (a revision's pages): a document has none to name.
  prepare: (req) => {
    req.body.seed ??= 'docs';
  },
});
