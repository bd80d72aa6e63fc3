// A revision's pages as `pages list`, `cr pages` and `revisions pages` print them at a terminal:
// one line a page, depth first, indented by depth: id, emoji and title, then its path (or link).

interface PageLine {
  id: string;
  title: string;
  emoji?: string;
  path?: string;
  href?: string;
  pages?: PageLine[];
}

export function pageTreeLines(pages: readonly PageLine[]): string[] {
  if (!pages.length) return ['No pages.'];
  const out: string[] = [];
  const walk = (list: readonly PageLine[], depth: number): void =>
    list.forEach((p) => {
      out.push(`${p.id}  ${'  '.repeat(depth)}${p.emoji ? p.emoji + ' ' : ''}${p.title}  (${p.path ?? p.href ?? ''})`);
      walk(p.pages ?? [], depth + 1);
    });
  walk(pages, 0);
  return out;
}
