import { afterAll, describe, expect, it } from 'vitest';
import { postgresOrSkip } from '../helpers/postgres.js';
import { bearerCall, pgServers } from '../helpers/pg-servers.js';

// A published page that server A answered (and keeps, src/published/render/cache.ts "Whole
// answers, by request") is current again once A hears of a change server B committed: the store's
// generation moves on every change heard from another process, not only on A's own commits.

const pgUrl = await postgresOrSkip();
const TOKEN = 'gb_api_published_answers';

describe.skipIf(!pgUrl)('published pages with two docs serve processes on one PostgreSQL store', () => {
  const servers = pgServers(pgUrl!, 'published_answers', TOKEN);
  afterAll(() => servers.stop());

  it('a page kept by one server shows the change the other committed', async () => {
    const a = await servers.start();
    const b = await servers.start();
    const call = bearerCall(TOKEN);
    const edit = async (base: string, space: string, changes: object[]) => {
      const cr = await call(base, 'POST', `/v1/spaces/${space}/change-requests`, { subject: 'Edit' });
      await call(base, 'POST', `/v1/spaces/${space}/change-requests/${cr.id}/content?compat=false`, { changes });
      await call(base, 'POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`);
    };
    const org = (await call(a.url, 'GET', '/v1/orgs')).items[0].id;
    const space = (await call(a.url, 'POST', `/v1/orgs/${org}/spaces`, { title: 'Docs' })).id;
    await edit(a.url, space, [{ operation: 'insert_page', ref: 'p', title: 'Welcome', document: { markdown: 'First words.' } }]);
    const site = await call(a.url, 'POST', `/v1/orgs/${org}/sites`, { title: 'Shared', spaces: [space] });
    const path = new URL((await call(a.url, 'POST', `/v1/orgs/${org}/sites/${site.id}/publish`)).urls.published).pathname;
    const page = async () => (await (await fetch(`${a.url}${path}/welcome`)).text()) as string;
    expect(await page()).toContain('First words.');
    expect(await page()).toContain('First words.'); // now answered from A's memory

    const pageId = (await call(b.url, 'GET', `/v1/spaces/${space}/content/pages`)).pages[0].id;
    await edit(b.url, space, [{ operation: 'update_page', page: pageId, document: { markdown: 'Second words.' } }]);
    const until = Date.now() + 10_000;
    let text = await page();
    while (!text.includes('Second words.') && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      text = await page();
    }
    expect(text).toContain('Second words.');
  }, 60_000);
});
