import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { readFileSync } from 'node:fs';
import { DocsError } from '../../src/kernel/errors.js';
import { DocsCommand } from '../_lib/base.js';
import { orgFlag, organizationOf } from '../_lib/org.js';

/** `a.b.c=value`: the value is JSON when it parses (true, 12, {"light":...}), else the text itself. */
export function applySet(target: Record<string, any>, assignment: string): void {
  const eq = assignment.indexOf('=');
  if (eq < 1) throw new DocsError('invalid', `--set ${assignment}: expected KEY.PATH=VALUE, e.g. styling.primaryColor.light=#1f6feb`);
  const keys = assignment.slice(0, eq).split('.');
  const raw = assignment.slice(eq + 1);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    value = raw;
  }
  let at = target;
  for (const k of keys.slice(0, -1)) at = at[k] = at[k] && typeof at[k] === 'object' ? { ...at[k] } : {};
  at[keys.at(-1)!] = value;
}

export default class SitesCustomize extends DocsCommand {
  static summary = "Change a site's customization (or a site space's overrides with --site-space)";
  static description =
    'API: GET then PUT /v1/orgs/{organizationId}/sites/{siteId}/customization (getSiteCustomizationById, updateSiteCustomizationById); ' +
    'with --site-space, PATCH .../site-spaces/{siteSpaceId}/customization (overrideSiteSpaceCustomizationById), where null resets an override.';
  static examples = [
    '<%= config.bin %> sites customize szK9Qp2mTtR4bLx0aVn1 --set styling.primaryColor.light=#1f6feb --set styling.primaryColor.dark=#58a6ff',
    '<%= config.bin %> sites customize szK9Qp2mTtR4bLx0aVn1 --set announcement=\'{"enabled":true,"message":"v2 is out","style":"info"}\'',
    '<%= config.bin %> sites customize szK9Qp2mTtR4bLx0aVn1 --file customization.json',
    '<%= config.bin %> sites customize szK9Qp2mTtR4bLx0aVn1 --site-space sspAq91LmZx2Vt8NcR0e --set styling.theme=bold',
    '<%= config.bin %> sites customize szK9Qp2mTtR4bLx0aVn1 --site-space sspAq91LmZx2Vt8NcR0e --set styling.theme=null   # back to the site\'s',
  ];
  static args = { siteId: Args.string({ description: 'The site (its ID)', required: true }) };
  static flags = {
    org: orgFlag(),
    set: Flags.string({ description: 'KEY.PATH=VALUE (VALUE as JSON when it parses, else text); repeatable', multiple: true }),
    file: Flags.string({ description: 'JSON file: the whole customization (site) or the overrides (--site-space); --set applies on top' }),
    'site-space': Flags.string({ description: 'Change the overrides of this site space instead of the site' }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(SitesCustomize);
    if (!flags.set?.length && !flags.file) throw new DocsError('invalid', 'give --set KEY.PATH=VALUE or --file FILE');
    const transport = await this.transport(flags);
    const path = { organizationId: (await organizationOf(flags, transport)), siteId: args.siteId };
    let body: Record<string, any>;
    if (flags.file) {
      try {
        body = JSON.parse(readFileSync(flags.file, 'utf8'));
      } catch (err) {
        throw new DocsError('invalid', `--file ${flags.file}: ${(err as Error).message}`);
      }
    } else body = flags['site-space'] ? {} : structuredClone((await transport.call('getSiteCustomizationById', { path, query: {} })).body as Record<string, any>);
    for (const s of flags.set ?? []) applySet(body, s);
    const result = flags['site-space']
      ? await transport.call('overrideSiteSpaceCustomizationById', { path: { ...path, siteSpaceId: flags['site-space'] }, body })
      : await transport.call('updateSiteCustomizationById', { path, body });
    if (!this.jsonEnabled()) this.log(JSON.stringify(result.body, null, 2));
    return result.body;
  }
}
