import { readable } from './contrast.js';
import { CODE_BG } from './css.js';
// Code highlighting with shiki's fine-grained core: the JavaScript regex engine (no WASM to
// load), two themes (light and dark, switched by CSS variables) and only the languages pages
// use, each loaded the first time a code block asks for it. Nothing here loads before a page
// with code is rendered.

const THEMES = { light: 'github-light-default', dark: 'github-dark-default' } as const;

/** Token colors made to read (WCAG AA) on the code background of each theme. */
function readableTokens(n: any) {
  if (typeof n.properties?.style === 'string') {
    n.properties.style = n.properties.style.replace(/--shiki-(light|dark):(#[0-9a-fA-F]{3,8})/g, (_: string, mode: 'light' | 'dark', c: string) => `--shiki-${mode}:${readable(c, CODE_BG[mode])}`);
  }
  for (const c of n.children ?? []) readableTokens(c);
}

let core: Promise<{ hl: any; langs: Record<string, () => Promise<any>> }> | undefined;
const loaded = new Map<string, Promise<boolean>>();

function highlighter() {
  core ??= (async () => {
    const [{ createHighlighterCore }, { createJavaScriptRegexEngine }, { bundledLanguages }, { bundledThemes }] = await Promise.all([
      import('shiki/core'),
      import('shiki/engine/javascript'),
      import('shiki/langs'),
      import('shiki/themes'),
    ]);
    const hl = await createHighlighterCore({
      themes: [bundledThemes[THEMES.light](), bundledThemes[THEMES.dark]()],
      langs: [],
      engine: createJavaScriptRegexEngine({ forgiving: true }),
    });
    return { hl, langs: bundledLanguages as Record<string, () => Promise<any>> };
  })();
  return core;
}

/** The language's id once loaded, or undefined when shiki does not know it (then: plain text). */
async function language(name: string): Promise<boolean> {
  const { hl, langs } = await highlighter();
  const key = name.toLowerCase();
  if (!Object.prototype.hasOwnProperty.call(langs, key)) return false;
  let p = loaded.get(key);
  if (!p) loaded.set(key, (p = langs[key]!().then((m) => hl.loadLanguage(m.default ?? m)).then(() => true, () => false)));
  return p;
}

/** The code block as shiki's HAST (a <pre>), or undefined when there is no language to highlight. */
export async function highlightCode(code: string, lang: string): Promise<unknown | undefined> {
  if (!lang || !(await language(lang))) return undefined;
  const { hl } = await highlighter();
  const pre = hl.codeToHast(code.replace(/\n$/, ''), { lang: lang.toLowerCase(), themes: THEMES, defaultColor: false }).children[0];
  readableTokens(pre);
  return pre;
}
