import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getDocumentById',
  description: 'A page body as a document (blocks), by the documentId pages carry: any body the space ever had, current or past',
  examples: [
    '<%= config.bin %> documents get dHD9ZmkOPnfy9hWCsaQB 3f1c8e0a6f0f3b2c4f8c1c5e5a2e7d9b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f --json',
    "<%= config.bin %> documents get dHD9ZmkOPnfy9hWCsaQB 3f1c8e0a6f0f3b2c4f8c1c5e5a2e7d9b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f --jq '.nodes | length'",
  ],
});
