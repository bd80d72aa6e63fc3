import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listCustomFonts',
  description: 'List the custom fonts of the organization',
  examples: ['<%= config.bin %> fonts list'],
  orgFlag: true,
  columns: ['id', 'fontFamily', 'fontFaces.length'],
});
