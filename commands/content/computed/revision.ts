import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getComputedRevision',
  description:
    'Compute the pages of a revision from a source (builtin:openapi: a page per tag or per operation, and the models; builtin:translation: the translated pages), without storing them',
  examples: [
    '<%= config.bin %> content computed revision dHD9ZmkOPnfy9hWCsaQB --source \'{"type":"builtin:openapi","dependencies":{"spec":{"ref":{"kind":"openapi","spec":"petstore"}}},"props":{"models":true}}\' --seed s1',
    '<%= config.bin %> content computed revision dHD9ZmkOPnfy9hWCsaQB --source \'{"type":"builtin:translation","props":{},"dependencies":{"translation":{"ref":{"kind":"translation","translation":"Tr4nsL8tI0nxYz123456"}}}}\' --json',
  ],
  columns: ['id', 'title', 'path'],
  // The same seed gives the same page ids.
  prepare: (req) => {
    req.body.seed ??= 'docs';
  },
});
