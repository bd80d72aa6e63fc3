import type { Context } from '../kernel/context.js';
import { notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { Sites } from '../sites/tables.js';
import { callIntegration } from './forward.js';
import { isInstalledOn } from './installations.js';
import { IntegrationInstallations, Integrations } from './tables.js';

// Site integration scripts (docs/manual/integrations.md#site-scripts): an integration installed on a
// site that holds `site:script:inject` gives the site's visitors a script. Its URL is this
// server's, outside /v1 and without a token (a visitor's browser loads it); it answers what the
// integration's `fetch_published_script` handler returns, asked through its development tunnel
// (src/integrations/forward.ts), as JavaScript.

export const SCRIPT_PATH = /^\/integration-scripts\/([A-Za-z0-9]+)\/([A-Za-z0-9]+)\.js$/;

export const integrationScriptUrl = (ctx: Context, installationId: string, siteId: string) =>
  `${ctx.baseUrl}/integration-scripts/${installationId}/${siteId}.js`;

/** The script of an installation for a site, or 404 when the address names no such script. */
export async function siteScript(ctx: Context, pathname: string): Promise<Buffer> {
  const m = SCRIPT_PATH.exec(pathname);
  const none = () => notFound(`no integration script at ${pathname}`);
  if (!m) throw none();
  const [, instId, siteId] = m as unknown as [string, string, string];
  const found = await ctx.store.read((tx) => {
    const inst = tx.get(IntegrationInstallations, instId);
    const i = inst && tx.get(Integrations, inst.integration);
    const site = tx.get(Sites, siteId);
    if (!inst || !i || !site || site.organization !== inst.organization || !isInstalledOn(inst, 'site', site.id)) return undefined;
    // No token here: only a published site has visitors to load it, so an unpublished one makes no
    // call to the integration for anyone who guesses its ids.
    if (!site.published) return undefined;
    if (i.target === 'space' || !i.scopes.includes('site:script:inject')) return undefined;
    return { inst, i, site };
  });
  if (!found) throw none();
  const { inst, i, site } = found;
  const { bytes } = await callIntegration(ctx, i, {
    type: 'fetch_published_script',
    eventId: newId(),
    integrationId: i.id,
    installationId: inst.id,
    siteId: site.id,
  });
  return bytes;
}
