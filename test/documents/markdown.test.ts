import { describe, expect, it } from 'vitest';
import { operationSpec } from '../../src/contract/spec.js';
import { validateInput } from '../../src/contract/validate.js';
import { documentToMarkdown, markdownToDocument } from '../../src/documents/markdown.js';

const SAMPLE = `# Docs agent

Answer **briefly**, in _English_, with \`code\` and [links](https://acme.com/docs).

## Rules

1. Be kind
2. Cite sources
   - nested point

- one
- two

> Quoted **advice**
>
> \`\`\`
> inside quote
> \`\`\`

\`\`\`ts
const a = 1;
const b = 2;
\`\`\`

---

<div>raw html</div>
`;

describe('markdown <-> Document', () => {
  it('makes a Document the contract accepts, and reads back as the same markdown', async () => {
    const doc = await markdownToDocument(SAMPLE);
    // The contract's own request schema is the judge.
    expect(() =>
      validateInput(operationSpec('updateOrganizationAgentInstructions'), { path: { organizationId: 'o' }, body: { instructions: doc } }),
    ).not.toThrow();
    expect(doc.nodes.map((n) => n.type)).toEqual([
      'heading-1',
      'paragraph',
      'heading-2',
      'list-ordered',
      'list-unordered',
      'blockquote',
      'code',
      'divider',
      'paragraph',
    ]);
    const para = doc.nodes[1];
    expect(para.nodes[0].leaves.map((l: any) => [l.text, l.marks.map((m: any) => m.type)])).toEqual([
      ['Answer ', []],
      ['briefly', ['bold']],
      [', in ', []],
      ['English', ['italic']],
      [', with ', []],
      ['code', ['code']],
      [' and ', []],
    ]);
    expect(para.nodes[1]).toMatchObject({ object: 'inline', type: 'link', data: { ref: { kind: 'url', url: 'https://acme.com/docs' } } });
    expect(doc.nodes[6]).toMatchObject({ type: 'code', data: { syntax: 'ts' } });
    expect(doc.nodes[6].nodes).toHaveLength(2);

    const md = documentToMarkdown(doc);
    expect(md).toContain('# Docs agent\n');
    expect(md).toContain('Answer **briefly**, in _English_, with `code` and [links](https://acme.com/docs).');
    expect(md).toContain('1. Be kind\n2. Cite sources\n   - nested point');
    expect(md).toContain('```ts\nconst a = 1;\nconst b = 2;\n```');
    // Converting the markdown again gives the same document.
    expect(await markdownToDocument(md)).toEqual(doc);
  });

  it('an empty text is an empty document', async () => {
    expect(await markdownToDocument('')).toEqual({ object: 'document', data: { schemaVersion: 1 }, nodes: [] });
    expect(documentToMarkdown({ nodes: [] })).toBe('\n');
  });
});
