import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { all, api, attrOf, byLabel, byTag, get, links, page, spaceWith, textOf } from './fixture.js';

// The customization's announcement banner and social accounts (0.202.0) on a published site.

let s: TestServer;
let call: ReturnType<typeof api>;
let o: string;
let base: string;

beforeAll(async () => {
  s = await startServer();
  call = api(s);
  const org = (await call('GET', '/v1/orgs')).items[0].id;
  const a = await spaceWith(s, org, 'Handbook', [page('a', 'Alpha', 'Alpha text.')]);
  const site = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Banner Site', spaces: [a.space.id] });
  o = `/v1/orgs/${org}/sites/${site.id}`;
  base = (await call('POST', `${o}/publish`)).urls.published;
}, 60_000);
afterAll(() => s?.stop());

const customize = async (change: (c: any) => void) => {
  const c = await call('GET', `${o}/customization`);
  change(c);
  await call('PUT', `${o}/customization`, c);
};

describe('announcement and social accounts', () => {
  it('an enabled announcement is a banner above the header, a link when it has one; disabled, none', async () => {
    expect(byLabel((await get(s, base)).doc, 'Announcement')).toBeUndefined();
    await customize(
      (c) =>
        (c.announcement = {
          enabled: true,
          message: 'Version 2 is out <b>now</b>',
          style: 'warning',
          link: { title: 'Read', to: { kind: 'url', url: 'https://example.test/v2' } },
        }),
    );
    const doc = (await get(s, base)).doc;
    const banner = byLabel(doc, 'Announcement');
    expect(textOf(banner)).toBe('Version 2 is out <b>now</b>');
    expect(attrOf(banner, 'class')).toContain('announcement-warning');
    expect(links(banner)).toEqual([{ text: 'Version 2 is out <b>now</b>', href: 'https://example.test/v2' }]);
    expect(byTag(banner, 'b')).toEqual([]);
    await customize((c) => (c.announcement.enabled = false));
    expect(byLabel((await get(s, base)).doc, 'Announcement')).toBeUndefined();
  });

  it('social accounts: in the footer by default, in the header when asked; unknown or unsafe handles dropped', async () => {
    await customize(
      (c) =>
        (c.socialAccounts = [
          { platform: 'github', handle: 'gitbookio', display: { footer: true, header: false } },
          { platform: 'mastodon', handle: 'docs@fosstodon.org', display: { footer: true, header: true } },
          { platform: 'slack', handle: 'evil.com/x', display: { footer: true, header: false } },
          { platform: 'twitter', handle: 'a/../b?c', display: { footer: true, header: false } },
        ]),
    );
    const doc = (await get(s, base)).doc;
    const navs = all(doc, (n) => n.tagName === 'nav' && attrOf(n, 'aria-label') === 'Social accounts');
    const footer = navs.find((n) => !(attrOf(n, 'class') ?? '').includes('header-social'));
    const header = navs.find((n) => (attrOf(n, 'class') ?? '').includes('header-social'));
    expect(links(footer)).toEqual([
      { text: 'GitHub', href: 'https://github.com/gitbookio' },
      { text: 'Mastodon', href: 'https://fosstodon.org/@docs' },
      { text: 'X (Twitter)', href: 'https://x.com/a%2F..%2Fb%3Fc' },
    ]);
    expect(links(header)).toEqual([{ text: 'Mastodon', href: 'https://fosstodon.org/@docs' }]);
  });
});
