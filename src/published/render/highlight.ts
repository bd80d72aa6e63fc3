import { readable } from './contrast.js';
import { CODE_BG } from './css.js';

// Code highlighting with shiki's fine-grained core: the JavaScript regex engine (no WASM to
// load), two themes (light and dark, switched by CSS variables) and only the languages and
// themes pages use, each loaded the first time a code block asks for it. Nothing here loads
// before a page with code is rendered. The customization's `styling.codeTheme.default` picks the
// themes (GitBook's names; an unknown one falls back to the default); token colors are always
// nudged to AA contrast on the background they are drawn on.

export interface CodeThemes {
  light: string;
  dark: string;
}

const DEFAULT: CodeThemes = { light: 'github-light-default', dark: 'github-dark-default' };
/** GitBook's theme names that are not shiki's. */
const ALIASES: Record<string, string> = {
  'default-light': DEFAULT.light,
  'default-dark': DEFAULT.dark,
  'monochrome-light': 'min-light',
  'monochrome-dark': 'min-dark',
};

/** The themes a customization asks for (`styling.codeTheme.default`), or undefined for the default look. */
export function codeThemesOf(styling: Record<string, any> | undefined): CodeThemes | undefined {
  const t = styling?.codeTheme?.default;
  if (!t || typeof t !== 'object') return undefined;
  const pick = (v: unknown, d: string) => (typeof v === 'string' && /^[a-z0-9-]{1,40}$/.test(v) ? (ALIASES[v] ?? v) : d);
  const out = { light: pick(t.light, DEFAULT.light), dark: pick(t.dark, DEFAULT.dark) };
  return out.light === DEFAULT.light && out.dark === DEFAULT.dark ? undefined : out;
}

/** Token colors made to read (WCAG AA) on the background of each mode. */
function readableTokens(n: any, bg: CodeThemes) {
  if (typeof n.properties?.style === 'string') {
    n.properties.style = n.properties.style.replace(
      /--shiki-(light|dark):(#[0-9a-fA-F]{3,8})/g,
      (_: string, mode: 'light' | 'dark', c: string) => `--shiki-${mode}:${readable(c, bg[mode])}`,
    );
  }
  for (const c of n.children ?? []) readableTokens(c, bg);
}

let core: Promise<{ hl: any; langs: Record<string, () => Promise<any>>; themes: Record<string, () => Promise<any>> }> | undefined;
const loaded = new Map<string, Promise<boolean>>();
const themesLoaded = new Map<string, Promise<boolean>>();

function highlighter() {
  core ??= (async () => {
    const [{ createHighlighterCore }, { createJavaScriptRegexEngine }, { bundledLanguages }, { bundledThemes }] = await Promise.all([
      import('shiki/core'),
      import('shiki/engine/javascript'),
      import('shiki/langs'),
      import('shiki/themes'),
    ]);
    const hl = await createHighlighterCore({
      themes: [bundledThemes[DEFAULT.light as keyof typeof bundledThemes](), bundledThemes[DEFAULT.dark as keyof typeof bundledThemes]()],
      langs: [],
      engine: createJavaScriptRegexEngine({ forgiving: true }),
    });
    return { hl, langs: bundledLanguages as Record<string, () => Promise<any>>, themes: bundledThemes as Record<string, () => Promise<any>> };
  })();
  return core;
}

/** The language's id once loaded, or undefined when shiki does not know it (then: plain text). */
async function language(name: string): Promise<boolean> {
  const { hl, langs } = await highlighter();
  const key = name.toLowerCase();
  if (!Object.hasOwn(langs, key)) return false;
  let p = loaded.get(key);
  if (!p)
    loaded.set(
      key,
      (p = langs[key]!()
        .then((m) => hl.loadLanguage(m.default ?? m))
        .then(
          () => true,
          () => false,
        )),
    );
  return p;
}

/** Whether the theme is (now) loaded; the default ones always are. */
async function theme(name: string): Promise<boolean> {
  if (name === DEFAULT.light || name === DEFAULT.dark) return true;
  const { hl, themes } = await highlighter();
  if (!Object.hasOwn(themes, name)) return false;
  let p = themesLoaded.get(name);
  if (!p)
    themesLoaded.set(
      name,
      (p = themes[name]!()
        .then((m) => hl.loadTheme(m.default ?? m))
        .then(
          () => true,
          () => false,
        )),
    );
  return p;
}

export interface Highlighted {
  /** shiki's HAST (a <pre>). */
  pre: unknown;
  /** Where the themes are not the default: each mode's background and text color, for the code block. */
  colors?: { light: { bg: string; fg: string }; dark: { bg: string; fg: string } };
}

/** The code block highlighted, or undefined when there is no language to highlight. */
export async function highlightCode(code: string, lang: string, wanted?: CodeThemes): Promise<Highlighted | undefined> {
  if (!lang || !(await language(lang))) return undefined;
  const { hl } = await highlighter();
  const themes = {
    light: wanted && (await theme(wanted.light)) ? wanted.light : DEFAULT.light,
    dark: wanted && (await theme(wanted.dark)) ? wanted.dark : DEFAULT.dark,
  };
  const pre = hl.codeToHast(code.replace(/\n$/, ''), { lang: lang.toLowerCase(), themes, defaultColor: false }).children[0];
  if (themes.light === DEFAULT.light && themes.dark === DEFAULT.dark) {
    readableTokens(pre, CODE_BG);
    return { pre };
  }
  const of = (name: string) => {
    const t = hl.getTheme(name);
    return { bg: String(t.bg), fg: String(t.fg) };
  };
  const colors = { light: of(themes.light), dark: of(themes.dark) };
  readableTokens(pre, { light: colors.light.bg, dark: colors.dark.bg });
  return { pre, colors };
}
