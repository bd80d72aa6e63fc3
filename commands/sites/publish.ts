import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'publishSite',
  description: 'Publish a docs site to the audience its visibility sets (--dry-run: what would be published)',
  examples: ['<%= config.bin %> sites publish szK9Qp2mTtR4bLx0aVn1', '<%= config.bin %> sites publish szK9Qp2mTtR4bLx0aVn1 --dry-run'],
  orgFlag: true,
  dryRun: (answer) => {
    const site = answer.result;
    const sections: any[] = answer.structure?.structure ?? [];
    const lines = [
      `Dry run, nothing changed: site ${site.title} (${site.id}) would be published, visibility ${site.visibility}, at ${site.urls?.published ?? '(no published URL)'}.`,
    ];
    if (answer.structure?.type === 'sections') {
      for (const s of sections)
        lines.push(
          `  ${s.object === 'site-section-group' ? 'group' : 'section'} ${s.title}${s.default ? ' (default)' : ''}: ${(s.siteSpaces ?? s.sections ?? []).length} ${s.siteSpaces ? 'spaces' : 'sections'}`,
        );
    } else
      lines.push(
        `  ${sections.length} site space${sections.length === 1 ? '' : 's'}: ${sections.map((s: any) => s.title ?? s.space?.title ?? s.id).join(', ')}`,
      );
    return lines;
  },
});
