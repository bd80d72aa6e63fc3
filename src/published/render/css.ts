import { color } from './html.js';

// The site's stylesheet: one small sheet, inlined, themed by CSS variables the customization
// sets (primary color per mode, font, corners, theme), light and dark by `data-theme` on <html>.

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
  if (font && typeof font === 'object' && typeof (font as any).fontFamily === 'string') return `"${(font as any).fontFamily.replace(/[^A-Za-z0-9 _-]/g, '')}", system-ui, sans-serif`;
  return FONTS.Inter!;
}

export function themeVars(styling: Record<string, any> = {}): string {
  const primary = styling.primaryColor ?? {};
  const radius = styling.corners === 'straight' ? '0' : styling.corners === 'circular' ? '999px' : '6px';
  return `:root{--primary:${color(primary.light, '#346ddb')};--font:${fontStack(styling.font)};--radius:${radius}}
[data-theme=dark]{--primary:${color(primary.dark, color(primary.light, '#346ddb'))}}`;
}

export const BASE_CSS = `
*{box-sizing:border-box}
:root{--bg:#fff;--fg:#1d1d1f;--muted:#6b6b76;--line:#e6e6ea;--soft:#f5f6f8;color-scheme:light}
[data-theme=dark]{--bg:#111214;--fg:#ececf1;--muted:#a3a3ad;--line:#2c2d33;--soft:#1b1c20;color-scheme:dark}
body{margin:0;font-family:var(--font);background:var(--bg);color:var(--fg);line-height:1.6}
a{color:var(--primary)}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:var(--bg);padding:4px 8px}
header.top{display:flex;flex-wrap:wrap;align-items:center;gap:16px;padding:10px 24px;border-bottom:1px solid var(--line)}
[data-style=bold] header.top{background:var(--primary);color:#fff}[data-style=bold] header.top a{color:#fff}
[data-style=muted]{--fg:#3a3a40}[data-theme=dark][data-style=muted]{--fg:#c9c9d1}
[data-style=gradient] header.top{background:linear-gradient(90deg,var(--primary),transparent)}
.brand{display:flex;align-items:center;gap:8px;font-weight:700;color:inherit;text-decoration:none;font-size:1.1rem}
.brand img{height:28px}
.brand .logo-dark{display:none}[data-theme=dark] .brand .logo-dark{display:inline}[data-theme=dark] .brand .logo-light{display:none}
nav.header-links,nav.sections,nav.variants{display:flex;gap:12px;flex-wrap:wrap;align-items:center}
nav a[aria-current]{font-weight:700;text-decoration:underline}
nav.sections{padding:6px 24px;border-bottom:1px solid var(--line)}
nav details{position:relative}nav details ul{position:absolute;background:var(--bg);border:1px solid var(--line);list-style:none;margin:0;padding:6px 12px;z-index:2}
form.search{margin-left:auto;display:flex;gap:4px}
form.search input{padding:4px 8px;border:1px solid var(--line);border-radius:var(--radius);background:var(--soft);color:var(--fg)}
form.search button,.toggle button{padding:4px 10px;border:1px solid var(--line);border-radius:var(--radius);background:var(--soft);color:var(--fg);cursor:pointer}
.layout{display:grid;grid-template-columns:260px minmax(0,1fr) 220px;gap:32px;max-width:1280px;margin:0 auto;padding:24px}
@media (max-width:900px){.layout{grid-template-columns:1fr}aside.outline{display:none}}
aside.sidebar ul{list-style:none;padding-left:12px;margin:0}aside.sidebar>nav>ul{padding-left:0}
aside.sidebar li{margin:2px 0}aside.sidebar .group{font-weight:600;margin-top:12px;color:var(--muted);text-transform:uppercase;font-size:.8rem}
aside.sidebar a{text-decoration:none;color:var(--fg)}aside.sidebar a[aria-current]{color:var(--primary);font-weight:600}
aside.outline{font-size:.9rem}aside.outline ul{list-style:none;padding-left:0}aside.outline .d3{padding-left:12px}
.breadcrumbs ol{list-style:none;display:flex;gap:6px;padding:0;margin:0;color:var(--muted);font-size:.9rem}
.breadcrumbs li+li:before{content:"/";margin-right:6px}
.description{color:var(--muted);font-size:1.1rem}
.pager{display:flex;justify-content:space-between;margin-top:48px;gap:12px}
.pager a{border:1px solid var(--line);border-radius:var(--radius);padding:8px 14px;text-decoration:none}
pre{background:var(--soft);padding:12px;border-radius:var(--radius);overflow:auto}
.shiki,.shiki span{color:var(--shiki-light);background-color:var(--shiki-light-bg)}
[data-theme=dark] .shiki,[data-theme=dark] .shiki span{color:var(--shiki-dark);background-color:var(--shiki-dark-bg)}
table{border-collapse:collapse}th,td{border:1px solid var(--line);padding:4px 10px}
img{max-width:100%}
.hint{border-left:4px solid var(--primary);background:var(--soft);padding:4px 16px;margin:16px 0;border-radius:var(--radius)}
.hint-success{border-color:#00c950}.hint-warning{border-color:#fe9a00}.hint-danger{border-color:#fb2c36}
details{border:1px solid var(--line);border-radius:var(--radius);padding:6px 12px;margin:12px 0}summary{cursor:pointer;font-weight:600}
.broken-link{text-decoration:line-through;color:var(--muted)}
footer.site{border-top:1px solid var(--line);padding:24px;color:var(--muted);display:flex;gap:48px;flex-wrap:wrap}
footer.site ul{list-style:none;padding:0}
.results li{margin-bottom:12px}.results .snippet{color:var(--muted);font-size:.9rem}
.notfound{text-align:center;padding:64px 0}
`;
