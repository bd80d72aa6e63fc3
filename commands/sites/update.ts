import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateSiteById',
  description: 'Change a docs site: title, visibility, basename, proxy, defaults, adaptive content, agents context',
  examples: [
    '<%= config.bin %> sites update szK9Qp2mTtR4bLx0aVn1 --title "Developer Docs" --basename developers',
    '<%= config.bin %> sites update szK9Qp2mTtR4bLx0aVn1 --visibility unlisted --agents-context excluded',
    '<%= config.bin %> sites update szK9Qp2mTtR4bLx0aVn1 --proxy acme.com/docs',
    `<%= config.bin %> sites update szK9Qp2mTtR4bLx0aVn1 --adaptive-content '{"enabled":true}'`,
  ],
  orgFlag: true,
});
