// Code highlighting with shiki's fine-grained core: the JavaScript regex engine (no WASM to
// load), two themes (light and dark, switched by CSS variables) and only the languages pages
// use, each loaded the first time a code block asks for it. Nothing here loads before a page
// with code is rendered.

const THEMES = { light: 'github-light', dark: 'github-dark' } as const;

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
  return hl.codeToHast(code.replace(/\n$/, ''), { lang: lang.toLowerCase(), themes: THEMES, defaultColor: false }).children[0];
}
