import type { Settings } from '../../sites/customization.js';
import type { NavNode, SiteView, SpaceEntry } from '../../urls/site/site.js';
import { BASE_CSS, fontFaces, themeVars } from './css.js';
import { attr, esc, safeUrl } from './html.js';
import type { Heading } from './markdown.js';
import { emoji } from './page.js';
import { SITE_JS_HASH, SITE_JS_VERSION } from './script.js';

// The frame every page of a published site is drawn in: header (logo or title, header links,
// search, light/dark toggle), sections as top navigation, the site space switcher, the page
// tree as sidebar, the page, its outline, the footer. Whole without script (links and GET
// forms); the site's one script (./script.ts) adds to it.

export interface Frame {
  view: SiteView;
  entry?: SpaceEntry;
  settings: Settings;
  /** `auto`: the visitor's system preference (no choice made, the site lets them choose). */
  theme: 'light' | 'dark' | 'auto';
  /** The page's description (a meta tag for search engines and link previews). */
  description?: string;
  /** The document's <title> (the page's title; the site's is added). */
  title: string;
  /** The page's URL path (for the toggle's way back). */
  here: string;
  sidebar?: string;
  main: string;
  outline?: Heading[];
  /** Resolves a customization content ref (header and footer links) to a URL. */
  ref(to: unknown): string | undefined;
  noindex?: boolean;
  /** The page's meta links (docs/manual/content.md#meta-links), resolved to URLs. */
  canonical?: string;
  alternates?: string[];
  /** More CSS for this page (API reference pages). */
  css?: string;
}

const themed = (u: unknown, mode: 'light' | 'dark'): string | undefined => {
  if (typeof u === 'string') return u;
  if (u && typeof u === 'object') return (u as any)[mode] ?? (u as any).light;
  return undefined;
};

function favicon(settings: Settings): string {
  const f = settings.favicon ?? {};
  const icon = themed(f.icon, 'light');
  if (icon) return `<link rel="icon" href="${attr(safeUrl(icon))}">`;
  if (typeof f.emoji === 'string' && f.emoji) {
    const ch = emoji(f.emoji);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text y=".9em" font-size="90">${esc(ch)}</text></svg>`;
    return `<link rel="icon" href="data:image/svg+xml,${attr(encodeURIComponent(svg))}">`;
  }
  // No icon chosen: an empty one, so a browser does not ask the server's /favicon.ico (a 404 in its console).
  return '<link rel="icon" href="data:,">';
}

function navHtml(nodes: NavNode[], current: string | undefined): string {
  return nodes
    .map((n) => {
      if (n.kind === 'section') {
        const s = n.section;
        return `<a href="${attr(s.url)}"${s.row?.id === current ? ' aria-current="page"' : ''}>${esc(s.title)}</a>`;
      }
      // An external link (its URL checked when it was set: http, https or mailto only).
      if (n.kind === 'link')
        return `<a class="external" href="${attr(safeUrl(n.row.url))}" rel="noopener noreferrer"${n.row.description ? ` title="${attr(n.row.description)}"` : ''}>${esc(n.row.title)}</a>`;
      return `<details><summary>${esc(n.row.title)}</summary><ul>${n.children.map((c) => `<li>${navHtml([c], current)}</li>`).join('')}</ul></details>`;
    })
    .join('');
}

// Where a social account's handle leads (0.202.0 `socialAccounts`), by platform.
const SOCIAL: Record<string, [string, (h: string) => string | undefined]> = {
  twitter: ['X (Twitter)', (h) => `https://x.com/${encodeURIComponent(h)}`],
  instagram: ['Instagram', (h) => `https://www.instagram.com/${encodeURIComponent(h)}`],
  facebook: ['Facebook', (h) => `https://www.facebook.com/${encodeURIComponent(h)}`],
  linkedin: ['LinkedIn', (h) => `https://www.linkedin.com/company/${encodeURIComponent(h)}`],
  github: ['GitHub', (h) => `https://github.com/${encodeURIComponent(h)}`],
  discord: ['Discord', (h) => `https://discord.gg/${encodeURIComponent(h)}`],
  slack: ['Slack', (h) => (/^[a-z0-9-]+$/i.test(h) ? `https://${h}.slack.com` : undefined)],
  youtube: ['YouTube', (h) => `https://www.youtube.com/@${encodeURIComponent(h)}`],
  tiktok: ['TikTok', (h) => `https://www.tiktok.com/@${encodeURIComponent(h)}`],
  reddit: ['Reddit', (h) => `https://www.reddit.com/r/${encodeURIComponent(h)}`],
  bluesky: ['Bluesky', (h) => `https://bsky.app/profile/${encodeURIComponent(h)}`],
  // A Mastodon handle is user@server: the profile is on that server.
  mastodon: [
    'Mastodon',
    (h) => {
      const m = /^([A-Za-z0-9_]+)@([A-Za-z0-9.-]+\.[A-Za-z]{2,})$/.exec(h);
      return m ? `https://${m[2]}/@${m[1]}` : undefined;
    },
  ],
  threads: ['Threads', (h) => `https://www.threads.net/@${encodeURIComponent(h)}`],
  medium: ['Medium', (h) => `https://medium.com/@${encodeURIComponent(h)}`],
};

/** The site's social accounts shown at `where` (footer by default, header when asked), as links. */
function socialLinks(settings: Settings, where: 'header' | 'footer'): string {
  const accounts: any[] = Array.isArray(settings.socialAccounts) ? settings.socialAccounts.slice(0, 10) : [];
  return accounts
    .filter((a) => (where === 'footer' ? a?.display?.footer !== false : a?.display?.header === true))
    .map((a) => {
      const known = SOCIAL[a?.platform];
      const handle = typeof a?.handle === 'string' ? a.handle.replace(/^@/, '').trim() : '';
      const href = known && handle ? known[1](handle) : undefined;
      return href ? `<a href="${attr(href)}" rel="me noopener">${esc(known![0])}</a>` : '';
    })
    .join('');
}

/** The customization's announcement (when enabled): a banner above the header, a link when it has one. */
function announcement(f: Frame, lang: string): string {
  const a = f.settings.announcement;
  if (a?.enabled !== true) return '';
  const localized = a.localizedMessage && typeof a.localizedMessage === 'object' ? a.localizedMessage[lang] : undefined;
  const message = typeof localized === 'string' && localized.trim() ? localized : typeof a.message === 'string' ? a.message : '';
  if (!message.trim()) return '';
  const style = ['info', 'warning', 'danger', 'success'].includes(a.style) ? a.style : 'info';
  const href = a.link ? f.ref(a.link.to ?? a.link) : undefined;
  const text = esc(message);
  return `<div class="announcement announcement-${style}" role="region" aria-label="Announcement">${href ? `<a href="${attr(safeUrl(href))}">${text}</a>` : `<span>${text}</span>`}</div>`;
}

export function frame(f: Frame): string {
  const { view, settings, entry } = f;
  const siteTitle = typeof settings.title === 'string' && settings.title ? settings.title : view.site.title;
  const header = settings.header ?? {};
  const logoLight = themed(header.logo, 'light');
  const logoDark = themed(header.logo, 'dark');
  const brand = logoLight
    ? `<img class="logo-light" src="${attr(safeUrl(logoLight))}" alt="${attr(siteTitle)}">${logoDark && logoDark !== logoLight ? `<img class="logo-dark" src="${attr(safeUrl(logoDark))}" alt="">` : ''}<span>${esc(siteTitle)}</span>`
    : `<span>${esc(siteTitle)}</span>`;
  const links = (Array.isArray(header.links) ? header.links : [])
    .map((l: any) => {
      const href = f.ref(l?.to);
      const sub = (Array.isArray(l?.links) ? l.links : []).map((x: any) => [x?.title, f.ref(x?.to)]).filter((x: any[]) => x[1]);
      // An item with links of its own is a menu (a <details>, no script).
      if (sub.length)
        return `<details><summary>${esc(l.title)}</summary><ul>${sub.map(([t, h]: string[]) => `<li><a href="${attr(safeUrl(h))}">${esc(t)}</a></li>`).join('')}</ul></details>`;
      return href ? `<a href="${attr(safeUrl(href))}">${esc(l.title)}</a>` : '';
    })
    .join('');
  // Both choices are drawn; CSS shows the one leading away from the theme in effect (the system's
  // when none was chosen), so the toggle is right without script. The script sets the same cookie.
  const toggle =
    settings.themes?.toggeable !== false
      ? `<form class="toggle" method="get" action="${attr(view.base)}/~/theme" data-cookie="docs_theme_${attr(view.site.id)}" data-path="${attr(view.base)}"><input type="hidden" name="back" value="${attr(f.here)}"><button name="set" value="dark" aria-label="Switch to dark mode" title="Dark mode"><span aria-hidden="true">☾</span></button><button name="set" value="light" aria-label="Switch to light mode" title="Light mode"><span aria-hidden="true">☀</span></button></form>`
      : '';
  const search = `<form class="search" role="search" aria-label="Site search" method="get" action="${attr(view.base)}/~/search"><label for="q" class="skip">Search</label><input id="q" type="search" name="q" placeholder="Search…" aria-label="Search this site"><button type="submit">Search</button></form>`;
  // One section alone is no choice: no top navigation then.
  const sections =
    view.sections.length > 1 || view.nav.some((n) => n.kind === 'link')
      ? `<nav class="sections" aria-label="Sections">${navHtml(view.nav, entry?.section.row?.id)}</nav>`
      : '';
  const variants = entry ? entry.section.spaces.filter((e) => e.listed) : [];
  const switcher =
    variants.length > 1
      ? `<nav class="variants top" aria-label="Variants">${variants.map((e) => `<a href="${attr(e.url)}"${e === entry ? ' aria-current="page"' : ''}>${esc(e.space.title)}</a>`).join('')}</nav>`
      : '';
  const footer = settings.footer ?? {};
  const footerGroups = (Array.isArray(footer.groups) ? footer.groups : [])
    .map(
      (g: any) =>
        `<div><strong>${esc(g?.title)}</strong><ul>${(Array.isArray(g?.links) ? g.links : [])
          .map((l: any) => {
            const h = f.ref(l?.to);
            return h ? `<li><a href="${attr(safeUrl(h))}">${esc(l.title)}</a></li>` : '';
          })
          .join('')}</ul></div>`,
    )
    .join('');
  const footerLogo = themed(footer.logo, f.theme === 'dark' ? 'dark' : 'light');
  const outline = f.outline?.filter((h) => h.depth === 2 || h.depth === 3) ?? [];
  const lang = typeof settings.internationalization?.locale === 'string' ? settings.internationalization.locale : 'en';
  const socialHeader = socialLinks(settings, 'header');
  const socialFooter = socialLinks(settings, 'footer');
  const linkNav = links ? `<nav class="header-links" aria-label="Header links">${links}</nav>` : '';
  // On narrow screens the header keeps one row: its links and the variant switcher are drawn
  // again at the top of the page tree (after the content, or in the menu's drawer).
  const mobile =
    links || switcher
      ? `<nav class="mobile-links" aria-label="Site links">${links.replace(/<details>/g, '<details open>')}${variants.length > 1 ? variants.map((e) => `<a href="${attr(e.url)}"${e === entry ? ' aria-current="page"' : ''}>${esc(e.space.title)}</a>`).join('') : ''}</nav>`
      : '';
  const menu =
    f.sidebar || mobile
      ? '<button class="menu" type="button" aria-expanded="false" aria-controls="nav" aria-label="Menu"><span aria-hidden="true">☰</span></button>'
      : '';
  return `<!doctype html>
<html lang="${attr(lang)}" data-theme="${f.theme}" data-style="${attr(settings.styling?.theme ?? 'clean')}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(f.title === siteTitle ? siteTitle : `${f.title} | ${siteTitle}`)}</title>
${f.description ? `<meta name="description" content="${attr(f.description)}">` : ''}${f.noindex ? '<meta name="robots" content="noindex">' : ''}${f.canonical ? `<link rel="canonical" href="${attr(safeUrl(f.canonical))}">` : ''}${(f.alternates ?? []).map((u) => `<link rel="alternate" href="${attr(safeUrl(u))}">`).join('')}${favicon(settings)}
<style>${fontFaces(settings.styling?.font, view.base)}${themeVars(settings.styling)}${BASE_CSS}${f.css ?? ''}</style>
<script src="${attr(view.base)}/~/site.js?v=${SITE_JS_VERSION}" integrity="${SITE_JS_HASH}" defer></script></head>
<body><a class="skip" href="#content">Skip to content</a>
${announcement(f, lang)}<header class="top">${menu}<a class="brand" href="${attr(view.base)}">${brand}</a>${linkNav}${switcher}${socialHeader ? `<nav class="social header-social" aria-label="Social accounts">${socialHeader}</nav>` : ''}${search}${toggle}</header>
${sections}
<div class="layout">
<aside class="sidebar" id="nav" aria-label="Navigation">${mobile}${f.sidebar ?? ''}</aside>
<main id="content">${f.main}</main>
<aside class="outline" aria-label="Outline">${outline.length ? `<nav aria-label="On this page"><strong>On this page</strong><ul>${outline.map((h) => `<li class="d${h.depth}"><a href="#${attr(h.id)}">${esc(h.text)}</a></li>`).join('')}</ul></nav>` : ''}</aside>
</div>
<footer class="site">${footerLogo ? `<img src="${attr(safeUrl(footerLogo))}" alt="" height="24">` : ''}${footerGroups}${socialFooter ? `<nav class="social" aria-label="Social accounts">${socialFooter}</nav>` : ''}${typeof footer.copyright === 'string' ? `<p class="copyright">${esc(footer.copyright)}</p>` : ''}</footer>
</body></html>`;
}
