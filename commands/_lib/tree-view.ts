// The organization's tree as `docs spaces list --tree` shows it, built from the two lists the
// API gives (collections and spaces, each in tree order): within a parent, its collections,
// then its spaces. An item whose parent the caller cannot see is shown at the root.

export interface Node {
  object: 'collection' | 'space';
  id: string;
  title: string;
  parent?: string;
  emoji?: string;
  children?: Node[];
  [k: string]: unknown;
}

export function buildTree(collections: Node[], spaces: Node[]): Node[] {
  const known = new Set(collections.map((c) => c.id));
  const parentOf = (n: Node) => (n.parent && known.has(n.parent) ? n.parent : undefined);
  const childrenOf = (parent: string | undefined): Node[] => [
    ...collections.filter((c) => parentOf(c) === parent).map((c) => ({ ...c, children: childrenOf(c.id) })),
    ...spaces.filter((s) => parentOf(s) === parent),
  ];
  return childrenOf(undefined);
}

/** One line per item: its id, then its title indented by depth (collections end with `/`). */
export function renderTree(roots: Node[]): string {
  const lines: string[] = [];
  const visit = (nodes: Node[], depth: number) => {
    for (const n of nodes) {
      const label = n.object === 'collection' ? `${n.title}/` : `${n.emoji ? n.emoji + ' ' : ''}${n.title}`;
      // Ids have one length, so they make the column: titles (emoji are wide) come after.
      lines.push(`${n.id}  ${'  '.repeat(depth)}${label}`);
      if (n.children) visit(n.children, depth + 1);
    }
  };
  visit(roots, 0);
  return lines.length ? lines.join('\n') : 'No collections or spaces.';
}
