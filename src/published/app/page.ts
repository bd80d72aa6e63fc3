import { BASE_CSS, themeVars } from '../render/css.js';
import { attr, esc } from '../render/html.js';

// The frame of the app's read-only views (`urls.app`): a plain page, no script.

export function appPage(title: string, main: string, crumbs: { title: string; href?: string }[] = []): string {
  const trail = crumbs.length
    ? `<nav class="breadcrumbs" aria-label="Breadcrumbs"><ol>${crumbs.map((c) => `<li>${c.href ? `<a href="${attr(c.href)}">${esc(c.title)}</a>` : esc(c.title)}</li>`).join('')}</ol></nav>`
    : '';
  return `<!doctype html>
<html lang="en" data-theme="light" data-style="clean"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${esc(title)} | docs</title><style>${themeVars()}${BASE_CSS}main.app{max-width:960px;margin:0 auto;padding:24px}</style></head>
<body><header class="top"><a class="brand" href="/o">docs</a></header><main class="app" id="content">${trail}${main}</main></body></html>`;
}

export const list = (items: { title: string; href?: string; note?: string }[], empty = 'None.') =>
  items.length ? `<ul>${items.map((i) => `<li>${i.href ? `<a href="${attr(i.href)}">${esc(i.title)}</a>` : esc(i.title)}${i.note ? ` <small>${esc(i.note)}</small>` : ''}</li>`).join('')}</ul>` : `<p>${esc(empty)}</p>`;

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
