import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { DocsCommand } from '../_lib/base.js';
import { orgFlag, organizationOf } from '../_lib/org.js';

interface Item {
  object: 'site-space' | 'site-section' | 'site-section-group' | 'site-external-link';
  id: string;
  title: string;
  path?: string;
  default?: boolean;
  hidden?: boolean;
  condition?: string;
  url?: string;
  draft?: boolean;
  siteSpaces?: Item[];
  children?: Item[];
}

/** One line per item, indented by depth: groups end with '/', sections show their path, external links their URL. */
export function renderStructure(items: Item[], depth = 0): string[] {
  return items.flatMap((i) => {
    const link = i.object === 'site-external-link';
    const marks = [i.default ? 'default' : '', i.hidden ? 'hidden' : '', link && i.draft ? 'draft' : '', i.condition ? `if ${i.condition}` : ''].filter(
      Boolean,
    );
    const label = i.object === 'site-section-group' ? `${i.title}/` : link ? `${i.title}  → ${i.url}` : `${i.title}${i.path ? `  /${i.path}` : ''}`;
    const line = `${i.id}  ${'  '.repeat(depth)}${label}${marks.length ? `  (${marks.join(', ')})` : ''}`;
    return [line, ...renderStructure(i.children ?? i.siteSpaces ?? [], depth + 1)];
  });
}

export default class SitesStructure extends DocsCommand {
  static operations = ['getSiteStructure'];
  static summary = "Print a site's navigation tree: groups, sections and their site spaces, in order";
  static description = 'API: GET /v1/orgs/{organizationId}/sites/{siteId}/structure (getSiteStructure).';
  static examples = ['<%= config.bin %> sites structure szK9Qp2mTtR4bLx0aVn1', '<%= config.bin %> sites structure szK9Qp2mTtR4bLx0aVn1 --json'];
  static args = { siteId: Args.string({ description: 'The site (its ID)', required: true }) };
  static flags = {
    org: orgFlag(),
    'share-key': Flags.string({ description: 'Key of a share link (published URLs then carry it)' }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(SitesStructure);
    const transport = await this.transport(flags);
    const organizationId = await organizationOf(flags, transport);
    const query = flags['share-key'] ? { shareKey: flags['share-key'] } : {};
    const { body } = await transport.call('getSiteStructure', { path: { organizationId, siteId: args.siteId }, query });
    const tree = body as { type: string; structure: Item[] };
    if (!this.jsonEnabled()) this.log(tree.structure.length ? renderStructure(tree.structure).join('\n') : 'No site spaces yet.');
    return tree;
  }
}
