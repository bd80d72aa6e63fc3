import * as Flags from '@oclif/core/flags';
import { readFileSync } from 'node:fs';
import { markdownToDocument } from '../../src/documents/markdown.js';

/** `--description FILE`: the API takes a Document, the flag takes markdown, as the other document flags do. */
export const descriptionFlag = () =>
  Flags.string({
    description: 'Markdown file with the description ("-": standard input), sent as a Document',
    parse: async (file) => {
      let text: string;
      try {
        text = readFileSync(file === '-' ? 0 : file, 'utf8');
      } catch (err) {
        throw new Error(`description: cannot read ${file}: ${(err as Error).message}`);
      }
      return (await markdownToDocument(text)) as any;
    },
  });
