import { readable, onColor } from './contrast.js';
import { color } from './html.js';

// The site's stylesheet: one small sheet, inlined, themed by CSS variables the customization
// sets (primary color per mode, font, corners, theme), light and dark by `data-theme` on <html>
// (`auto`: the system's preference). Narrow screens (<= 900px): content first, the page tree
// after it (or, with the script, in a drawer behind the menu button); wide: sticky sidebar and outline.

const FONTS: Record<string, string> = {
  Inter: 'Inter, system-ui, sans-serif',
  Roboto: 'Roboto, system-ui, sans-serif',
  'Open Sans': '"Open Sans", system-ui, sans-serif',
  Lato: 'Lato, system-ui, sans-serif',
  Merriweather: 'Merriweather, Georgia, serif',
  'Source Sans Pro': '"Source Sans Pro", system-ui, sans-serif',
  'IBM Plex Serif': '"IBM Plex Serif", Georgia, serif',
  Poppins: 'Poppins, system-ui, sans-serif',
  Raleway: 'Raleway, system-ui, sans-serif',
  'Noto Sans': '"Noto Sans", system-ui, sans-serif',
};

export function fontStack(font: unknown): string {
  if (typeof font === 'string') return FONTS[font] ?? `"${font.replace(/[^A-Za-z0-9 _-]/g, '')}", system-ui, sans-serif`;
  if (font && typeof font === 'object' && typeof (font as any).fontFamily === 'string')
    return `"${(font as any).fontFamily.replace(/[^A-Za-z0-9 _-]/g, '')}", system-ui, sans-serif`;
  return FONTS.Inter!;
}

/**
 * `@font-face` rules for a custom font (`styling.font` holding a CustomizationFontDefinition of
 * this server: `custom: true` and an id), each face served by the site itself at
 * `<base>/~/fonts/<id>/<weight>` (the pages' CSP allows `font-src 'self'` only).
 * docs/manual/site-delivery.md#on-a-published-site
 */
export function fontFaces(font: unknown, base: string): string {
  const f = font as any;
  if (!f || typeof f !== 'object' || f.custom !== true || typeof f.id !== 'string' || !/^[A-Za-z0-9]{1,64}$/.test(f.id)) return '';
  if (typeof f.fontFamily !== 'string' || !Array.isArray(f.fontFaces)) return '';
  const family = f.fontFamily.replace(/[^A-Za-z0-9 _-]/g, '');
  const weights = [
    ...new Set(f.fontFaces.map((x: any) => x?.weight).filter((w: unknown) => Number.isInteger(w) && (w as number) >= 1 && (w as number) <= 1000)),
  ];
  const url = (w: unknown) => `${base}/~/fonts/${f.id}/${w}`.replace(/[^A-Za-z0-9/_~.%-]/g, (c) => encodeURIComponent(c));
  return weights.map((w) => `@font-face{font-family:"${family}";font-weight:${w};font-display:swap;src:url("${url(w)}")}`).join('');
}

// The two palettes. The page follows the visitor's system preference (`data-theme=auto`) unless
// a theme was chosen (the toggle's cookie) or the site forces one (not toggeable).
const LIGHT = { bg: '#ffffff', fg: '#1d1d1f', muted: '#5d5d68', line: '#e3e3e8', soft: '#f5f6f8', code: '#f6f8fa', warn: '#8a4b00' };
const DARK = { bg: '#111214', fg: '#ececf1', muted: '#a3a3ad', line: '#2e2f36', soft: '#1b1c20', code: '#1b1f26', warn: '#ffb454' };
export const CODE_BG = { light: LIGHT.code, dark: DARK.code };

const vars = (o: Record<string, string>) =>
  Object.entries(o)
    .map(([k, v]) => `--${k}:${v}`)
    .join(';');
const dark = (body: string) => `[data-theme=dark]{${body}}@media (prefers-color-scheme:dark){[data-theme=auto]{${body}}}`;

export function themeVars(styling: Record<string, any> = {}): string {
  const primary = styling.primaryColor ?? {};
  const radius = styling.corners === 'straight' ? '0' : styling.corners === 'circular' ? '999px' : '6px';
  const light = color(primary.light, '#346ddb');
  const dk = color(primary.dark, light);
  // --primary is the color as chosen (accents, borders); --link is it adjusted to read as text.
  const mode = (c: string, p: typeof LIGHT) => `--primary:${c};--link:${readable(c, p.soft)};--on-primary:${onColor(c)}`;
  return `:root{${mode(light, LIGHT)};--font:${fontStack(styling.font)};--radius:${radius}}${dark(mode(dk, DARK))}`;
}

const DARK_REST = `${vars(DARK)};color-scheme:dark`;

export const BASE_CSS = `
*{box-sizing:border-box}
:root{${vars(LIGHT)};color-scheme:light;--top:56px}
${dark(`${DARK_REST}`)}
html{scroll-padding-top:calc(var(--top) + 16px);-webkit-text-size-adjust:100%}
body{margin:0;font-family:var(--font);background:var(--bg);color:var(--fg);line-height:1.6}
a{color:var(--link)}main a,footer a{overflow-wrap:anywhere}
:focus-visible{outline:2px solid var(--link);outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:var(--bg);padding:4px 8px;z-index:30}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
button,input{font:inherit;color:var(--fg)}
button{padding:4px 10px;border:1px solid var(--line);border-radius:var(--radius);background:var(--soft);cursor:pointer;line-height:1.4}
button:hover{border-color:var(--muted)}
input[type=search],input[type=text],input[type=password]{padding:5px 10px;border:1px solid var(--line);border-radius:var(--radius);background:var(--soft);min-width:0}
header.top{position:sticky;top:0;z-index:20;display:flex;align-items:center;gap:16px;height:var(--top);padding:0 24px;border-bottom:1px solid var(--line);background:var(--bg);white-space:nowrap}
[data-style=bold] header.top{background:var(--primary);color:var(--on-primary)}[data-style=bold] header.top a{color:var(--on-primary)}
[data-style=muted]{--fg:#3a3a40}[data-theme=dark][data-style=muted]{--fg:#c9c9d1}@media (prefers-color-scheme:dark){[data-theme=auto][data-style=muted]{--fg:#c9c9d1}}
[data-style=gradient] header.top{background:linear-gradient(90deg,var(--soft),var(--bg))}
.brand{display:flex;align-items:center;gap:8px;font-weight:700;color:inherit;text-decoration:none;font-size:1.1rem;min-width:0;overflow:hidden;text-overflow:ellipsis}
.brand img{height:28px}
.brand .logo-dark{display:none}[data-theme=dark] .brand .logo-dark{display:inline}[data-theme=dark] .brand .logo-light{display:none}
@media (prefers-color-scheme:dark){[data-theme=auto] .brand .logo-dark{display:inline}[data-theme=auto] .brand .logo-light{display:none}}
nav.header-links,nav.sections,nav.variants{display:flex;gap:14px;align-items:center}
nav.header-links a,nav.sections a,nav.variants a{text-decoration:none}
nav a[aria-current=page]{font-weight:700;text-decoration:underline}
nav.sections{padding:6px 24px;border-bottom:1px solid var(--line);flex-wrap:wrap}
nav details{position:relative}nav details ul{position:absolute;background:var(--bg);border:1px solid var(--line);border-radius:var(--radius);list-style:none;margin:4px 0 0;padding:6px 12px;z-index:25}
nav summary{cursor:pointer}
form.search{margin-left:auto;display:flex;gap:4px;min-width:0;flex:0 1 260px}form.search input{flex:1;width:100%}
.toggle button,button.menu{padding:4px 8px}
.toggle [value=light]{display:none}[data-theme=dark] .toggle [value=light]{display:inline-block}[data-theme=dark] .toggle [value=dark]{display:none}
@media (prefers-color-scheme:dark){[data-theme=auto] .toggle [value=light]{display:inline-block}[data-theme=auto] .toggle [value=dark]{display:none}}
.shiki span{color:var(--shiki-light)}
[data-theme=dark] .shiki span{color:var(--shiki-dark)}@media (prefers-color-scheme:dark){[data-theme=auto] .shiki span{color:var(--shiki-dark)}}
button.menu{display:none}
.layout{display:grid;grid-template-columns:260px minmax(0,1fr) 220px;gap:40px;max-width:1400px;margin:0 auto;padding:0 24px}
main{min-width:0;padding:24px 0 48px}
aside.sidebar>nav,aside.outline>nav{position:sticky;top:var(--top);max-height:calc(100vh - var(--top));overflow:auto;padding:24px 4px 24px 0;overscroll-behavior:contain}
aside.sidebar ul{list-style:none;padding-left:12px;margin:0}aside.sidebar>nav>ul{padding-left:0}
aside.sidebar li{margin:1px 0}aside.sidebar .group{font-weight:600;margin-top:16px;color:var(--muted);text-transform:uppercase;font-size:.78rem;letter-spacing:.04em}
aside.sidebar .row{display:flex;align-items:flex-start;gap:2px}
aside.sidebar a{display:block;flex:1;text-decoration:none;color:var(--fg);padding:3px 8px;border-radius:var(--radius);overflow-wrap:anywhere}
aside.sidebar a:hover{background:var(--soft)}aside.sidebar a[aria-current]{color:var(--link);font-weight:600;background:var(--soft)}aside.sidebar a.external::after{content:" ↗";font-size:.8em;color:var(--muted)}
button.arrow{display:none;border:0;background:none;padding:3px 6px;color:var(--muted);line-height:1.6}
.js button.arrow{display:block}button.arrow:before{content:"▸";display:inline-block;transition:transform .15s}button.arrow[aria-expanded=true]:before{transform:rotate(90deg)}
.js li.closed>ul{display:none}
nav.mobile-links{display:none}
aside.outline{font-size:.88rem;min-width:0}aside.outline ul{list-style:none;padding-left:0;margin:8px 0}aside.outline .d3{padding-left:12px}
aside.outline a{display:block;padding:2px 0 2px 10px;border-left:2px solid transparent;color:var(--muted);text-decoration:none;overflow-wrap:anywhere}
aside.outline a[aria-current]{color:var(--link);border-left-color:var(--primary)}
.breadcrumbs ol{list-style:none;display:flex;flex-wrap:wrap;gap:6px;padding:0;margin:0;color:var(--muted);font-size:.9rem}
.breadcrumbs li+li:before{content:"/";margin-right:6px}
h1{font-size:2rem;line-height:1.25;margin:.4em 0;overflow-wrap:break-word}h2,h3{line-height:1.3;margin-top:1.8em}
.description{color:var(--muted);font-size:1.1rem}
.page-actions ul{list-style:none;display:flex;flex-wrap:wrap;gap:8px;padding:0;margin:0 0 12px}.page-actions button{font-size:.85rem;padding:3px 10px}.page-actions a{display:inline-block;border:1px solid var(--line);border-radius:var(--radius);padding:3px 10px;font-size:.85rem;text-decoration:none}
.updated{color:var(--muted);font-size:.85rem;margin-top:40px}
.pager{display:flex;justify-content:space-between;margin-top:24px;gap:12px}
.pager a{border:1px solid var(--line);border-radius:var(--radius);padding:10px 14px;text-decoration:none;max-width:48%}.pager a[rel=next]{margin-left:auto;text-align:right}
.feedback{display:flex;flex-wrap:wrap;align-items:center;gap:8px;margin-top:24px;color:var(--muted,inherit)}.feedback button{border:1px solid var(--line);border-radius:var(--radius);background:none;color:inherit;padding:4px 10px;cursor:pointer}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
:not(pre)>code{background:var(--soft);border:1px solid var(--line);border-radius:4px;padding:0 4px;overflow-wrap:anywhere}
.code{position:relative;margin:16px 0;border:1px solid var(--line);border-radius:var(--radius);background:var(--code)}
.code-head{display:flex;justify-content:space-between;align-items:center;padding:2px 8px 2px 12px;border-bottom:1px solid var(--line);font-size:.75rem;color:var(--muted);min-height:30px}
.code-head button{font-size:.75rem;padding:1px 8px}
.code[style]{background:var(--cb-l);color:var(--cf-l)}.code[style] .code-head{color:inherit}
[data-theme=dark] .code[style]{background:var(--cb-d);color:var(--cf-d)}@media (prefers-color-scheme:dark){[data-theme=auto] .code[style]{background:var(--cb-d);color:var(--cf-d)}}
pre{background:var(--code);padding:12px;margin:0;border-radius:var(--radius);overflow-x:auto;line-height:1.5}.code pre{background:none!important}
.table-wrap{overflow-x:auto;margin:16px 0}
table{border-collapse:collapse}th,td{border:1px solid var(--line);padding:6px 12px;text-align:left;vertical-align:top}th{background:var(--soft)}
img{max-width:100%;height:auto}figure{margin:16px 0}figcaption{color:var(--muted);font-size:.9rem;text-align:center;margin-top:6px}
.embed{border:1px solid var(--line);border-radius:var(--radius);padding:4px 16px;margin:16px 0}.embed:before{content:"↗ Embedded content";display:block;color:var(--muted);font-size:.8rem;margin-top:8px}
.hint{border-left:4px solid var(--primary);background:var(--soft);padding:4px 16px;margin:16px 0;border-radius:var(--radius)}
.hint-success{border-color:#00c950}.hint-warning{border-color:#fe9a00}.hint-danger{border-color:#fb2c36}
details{border:1px solid var(--line);border-radius:var(--radius);padding:6px 12px;margin:12px 0}summary{cursor:pointer;font-weight:600}
.tabs{margin:16px 0}.tabs [role=tablist]{display:flex;gap:2px;overflow-x:auto;border-bottom:1px solid var(--line)}
.tabs [role=tab]{border:0;border-bottom:2px solid transparent;border-radius:0;background:none;padding:6px 12px}.tabs [role=tab][aria-selected=true]{border-bottom-color:var(--primary);color:var(--link);font-weight:600}
.tabs [role=tabpanel]{padding:4px 0}
.broken-link{color:var(--warn);text-decoration:underline wavy;text-underline-offset:3px;cursor:help}.broken-link:before{content:"⚠ "}
.announcement{padding:8px 24px;text-align:center;background:var(--soft);border-bottom:3px solid var(--primary);overflow-wrap:anywhere}
.announcement-success{border-color:#00c950}.announcement-warning{border-color:#fe9a00}.announcement-danger{border-color:#fb2c36}
nav.social{display:flex;gap:12px;flex-wrap:wrap;align-items:center}
footer.site{border-top:1px solid var(--line);padding:24px;color:var(--muted);display:flex;gap:48px;flex-wrap:wrap}
footer.site ul{list-style:none;padding:0}
form.page-search{margin:0 0 24px;max-width:480px}.page-search label{align-self:center}
.results li{margin-bottom:12px}.results .snippet{color:var(--muted);font-size:.9rem}
.notfound{text-align:center;padding:64px 0}
@media (max-width:1180px){.layout{grid-template-columns:240px minmax(0,1fr)}aside.outline{display:none}}
@media (max-width:900px){
header.top{gap:10px;padding:0 12px}nav.header-links,nav.variants.top{display:none}nav.mobile-links{display:flex;flex-direction:column;gap:4px;padding-bottom:12px;margin-bottom:12px;border-bottom:1px solid var(--line)}
.js button.menu{display:inline-block}
nav.sections{padding:6px 12px;flex-wrap:nowrap;overflow-x:auto;white-space:nowrap}nav.sections details ul{position:static}
.layout{display:flex;flex-direction:column;padding:0 16px;gap:0}main{order:1;padding-top:16px}aside.sidebar{order:2;border-top:1px solid var(--line)}
aside.sidebar>nav{position:static;max-height:none}
.js aside.sidebar{position:fixed;z-index:15;top:var(--top);left:0;bottom:0;width:min(320px,86vw);background:var(--bg);border-right:1px solid var(--line);padding:0 12px;overflow:auto;visibility:hidden;transform:translateX(-100%)}
.anim aside.sidebar{transition:transform .2s,visibility .2s}
.js .nav-open aside.sidebar{visibility:visible;transform:none}
h1{font-size:1.6rem}
}
@media (max-width:520px){form.search button{display:none}.brand span{max-width:38vw;overflow:hidden;text-overflow:ellipsis}}
@media (prefers-reduced-motion:reduce){*{transition:none!important}}
`;
