import { moveCommand } from '../_lib/move-command.js';

// A group's siblings are groups and sections: an ID is a group's, `site-section:ID` a section's
// (ids carry no kind, so the command cannot tell them apart by looking).
export default moveCommand({
  operationId: 'moveSiteSectionGroup',
  what: 'section group',
  examples: [
    '<%= config.bin %> section-groups move szK9Qp2mTtR4bLx0aVn1 sgp3Lw8QzX1nVb6MkT0c --before sgp9Rt2YcN5xWq7LmB4a',
    '<%= config.bin %> section-groups move szK9Qp2mTtR4bLx0aVn1 sgp3Lw8QzX1nVb6MkT0c --after site-section:sctB2nV8xQ4mLp0ZrT6y',
  ],
  sibling: 'a group ID, or site-section:ID',
  pointer: (v) =>
    v.startsWith('site-section:')
      ? { type: 'site-section', id: v.slice('site-section:'.length) }
      : { type: 'site-section-group', id: v.replace(/^site-section-group:/, '') },
});
