import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateSiteTopicById',
  description: "Change a topic's usage settings: whether its context may be used to propose change requests",
  examples: ['<%= config.bin %> sites context topics update szK9Qp2mTtR4bLx0aVn1 szK9Qp2mTtR4bLx0aVn1:t9a8b7c6d5e4f3a2b1c0 --no-change-requests'],
  orgFlag: true,
  flags: {
    'change-requests': Flags.boolean({ allowNo: true, description: 'use the topic to propose change requests (--no-change-requests: do not)' }),
  },
  prepare: (req, flags) => {
    if (flags['change-requests'] !== undefined) req.body = { ...req.body, usageSettings: { changeRequests: flags['change-requests'] } };
  },
  summary: (b) => `✓ Topic ${b.id} (${b.label}): change requests ${b.usageSettings.changeRequests ? 'on' : 'off'}`,
});
