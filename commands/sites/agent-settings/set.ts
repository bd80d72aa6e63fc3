import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateSiteAgentSettingsById',
  description: "Replace a site's agent settings; --instructions (markdown) is what its MCP endpoints tell agents",
  examples: ['<%= config.bin %> sites agent-settings set szK9Qp2mTtR4bLx0aVn1 --instructions "Answer in British English. Link the page you quote."'],
  orgFlag: true,
  flags: {
    instructions: Flags.string({ description: "The site's instructions for agents (markdown: paragraphs of text)" }),
    topics: Flags.string({ description: 'Scan topics for findings', options: ['auto', 'never'], default: 'auto' }),
    'change-requests': Flags.string({ description: 'Change requests for findings', options: ['always', 'auto-fixable', 'never'], default: 'auto-fixable' }),
  },
  prepare: (req, flags) => {
    req.body ??= {};
    req.body.scans ??= { topics: flags.topics };
    req.body.findings ??= { changeRequests: flags['change-requests'] };
    if (flags.instructions !== undefined || !req.body.editing) {
      const paragraphs = String(flags.instructions ?? '')
        .split(/\n\s*\n/)
        .map((p) => p.trim())
        .filter(Boolean);
      req.body.editing = {
        customInstructions: {
          object: 'document',
          data: {},
          nodes: paragraphs.map((text) => ({
            object: 'block',
            type: 'paragraph',
            data: {},
            nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
          })),
        },
      };
    }
  },
  summary: () => '✓ Agent settings saved',
});
