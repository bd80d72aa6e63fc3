import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getCustomFont',
  description: 'Show a custom font: its family and the URL of each weight',
  examples: ['<%= config.bin %> fonts get fnt4Vb8QmZp1LkS2xTc9'],
  orgFlag: true,
});
