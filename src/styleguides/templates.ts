// The built-in style guide templates (listStyleguideTemplates): each a page of markdown that
// createSiteStyleguideById seeds a new style guide with. Each states its rules in the forms
// rules.ts reads (docs/manual/styleguides.md#the-rules).

export interface StyleguideTemplate {
  id: string;
  title: string;
  subtitle: string;
  emoji: string;
  markdown: string;
}

export const STYLEGUIDE_TEMPLATES: StyleguideTemplate[] = [
  {
    id: 'plain-language',
    title: 'Plain language',
    subtitle: 'Short sentences, everyday words, sentence-case headings',
    emoji: '✏️',
    markdown: [
      'Write for a reader in a hurry: say the most important thing first.',
      '',
      '## Headings',
      '',
      'Headings use sentence case: only the first word and names are capitalized.',
      '',
      '## Sentences',
      '',
      'Sentences have at most 25 words. Split a longer one in two.',
      '',
      '## Terms',
      '',
      '- Use "sign in", not "login" or "log in"',
      '- Use "use", not "utilize"',
      '- Use "help", not "assist"',
      '- Use "start", not "commence"',
      '',
    ].join('\n'),
  },
  {
    id: 'technical-reference',
    title: 'Technical reference',
    subtitle: 'Precise terms, title-case headings, sentences of at most 30 words',
    emoji: '📘',
    markdown: [
      'Reference pages are read in pieces: each section stands on its own.',
      '',
      '## Headings',
      '',
      'Headings use title case.',
      '',
      '## Sentences',
      '',
      'Sentences have at most 30 words.',
      '',
      '## Terms',
      '',
      '- Use "API key", not "api-key" or "apikey"',
      '- Use "endpoint", not "end-point"',
      '- Use "select", not "click on"',
      '',
    ].join('\n'),
  },
];

/** A blank style guide: no rules yet, and where to write them. */
export const BLANK_STYLEGUIDE = [
  'The writing rules of this site. A style guide check reads them from this space:',
  '',
  '- a list under a heading naming terms: `- Use "sign in", not "log in"`',
  '- "Headings use sentence case" (or title case)',
  '- "Sentences have at most 25 words"',
  '',
].join('\n');
