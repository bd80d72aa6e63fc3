import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'createSite',
  description: 'Create a docs site (unpublished), optionally with spaces as its first site spaces',
  examples: [
    '<%= config.bin %> sites create --title "Public Docs"',
    '<%= config.bin %> sites create --title "Partner Docs" --visibility share-link --spaces dHD9ZmkOPnfy9hWCsaQB --spaces Mkd92LsQpX0aZtY7vB3n',
  ],
  orgFlag: true,
});
