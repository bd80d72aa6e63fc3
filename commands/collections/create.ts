import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'createCollection',
  description: 'Create a collection, at the root or in a parent collection',
  examples: [
    '<%= config.bin %> collections create --title Guides',
    '<%= config.bin %> collections create --title "How-to" --parent szoY47EmGxQDFXEuua83 --org 6yZr3RyMqly3HeMx6Xkr',
  ],
  orgFlag: true,
});
