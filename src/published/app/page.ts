import { BASE_CSS, themeVars } from '../render/css.js';
import { attr, esc } from '../render/html.js';

// The frame of the app's read-only views (`urls.app`): the published sites' look (the same
// sheet, light or dark as the system prefers), no script.

const APP_CSS = `main.app{max-width:1100px;margin:0 auto;padding:24px}main.app>.layout{padding:0;gap:32px;grid-template-columns:240px minmax(0,1fr)}main.app>.layout>div{min-width:0}
main.app ul.changes{list-style:none;padding:0}main.app ul.changes>li{margin:16px 0}
pre.diff{white-space:pre-wrap;overflow-wrap:anywhere;padding:0;border:1px solid var(--line)}pre.diff>*{display:block;padding:0 12px;text-decoration:none}
pre.diff ins{background:#e6ffec;color:#116329}pre.diff del{background:#ffebe9;color:#a40e26}
[data-theme=dark] pre.diff ins{background:#12261e;color:#7ee2a8}[data-theme=dark] pre.diff del{background:#2d1214;color:#ffa198}
@media (prefers-color-scheme:dark){[data-theme=auto] pre.diff ins{background:#12261e;color:#7ee2a8}[data-theme=auto] pre.diff del{background:#2d1214;color:#ffa198}}
dl.fields{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px}dl.fields dt{font-weight:600}dl.fields dd{margin:0;overflow-wrap:anywhere}
form label{display:block;margin:12px 0 4px}form input[type=password]{width:min(420px,100%)}form button{margin-top:12px}
@media (max-width:900px){main.app{padding:16px}main.app>.layout aside.sidebar{order:2}}`;

export function appPage(title: string, main: string, crumbs: { title: string; href?: string }[] = []): string {
  const trail = crumbs.length
    ? `<nav class="breadcrumbs" aria-label="Breadcrumbs"><ol>${crumbs.map((c) => `<li>${c.href ? `<a href="${attr(c.href)}">${esc(c.title)}</a>` : esc(c.title)}</li>`).join('')}</ol></nav>`
    : '';
  return `<!doctype html>
<html lang="en" data-theme="auto" data-style="clean"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${esc(title)} | docs</title><style>${themeVars()}${BASE_CSS}${APP_CSS}</style></head>
<body><a class="skip" href="#content">Skip to content</a><header class="top"><a class="brand" href="/o">docs</a></header><main class="app" id="content">${trail}${main}</main></body></html>`;
}

export const list = (items: { title: string; href?: string; note?: string }[], empty = 'None.') =>
  items.length
    ? `<ul>${items.map((i) => `<li>${i.href ? `<a href="${attr(i.href)}">${esc(i.title)}</a>` : esc(i.title)}${i.note ? ` <small>${esc(i.note)}</small>` : ''}</li>`).join('')}</ul>`
    : `<p>${esc(empty)}</p>`;

export const section = (title: string, body: string) => `<section><h2>${esc(title)}</h2>${body}</section>`;

export function loginForm(next: string, error?: string): string {
  return appPage(
    'Sign in',
    `<h1>Sign in</h1>${error ? `<p role="alert">${esc(error)}</p>` : ''}
<form method="post" action="/o/login"><input type="hidden" name="next" value="${attr(next)}">
<label for="token">API token</label> <input id="token" name="token" type="password" autocomplete="off" required>
<button type="submit">Sign in</button></form>
<p>Use a token from <code>docs auth</code> or the one <code>docs serve</code> printed.</p>`,
  );
}
