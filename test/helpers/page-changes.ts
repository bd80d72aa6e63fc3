/** `n` insert_page changes with bodies of ~1 KB, every fourth a parent of the three after it. */
export const pageChanges = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    operation: 'insert_page',
    ref: `p${i}`,
    ...(i % 4 ? { into: `p${i - (i % 4)}` } : {}),
    title: `Page ${i}`,
    document: { markdown: `Page ${i}. ${'Some text of a page body. '.repeat(40)}` },
  }));
