import * as Flags from '@oclif/core/flags';
import { readFileSync } from 'node:fs';
import { markdownToDocument } from '../../src/documents/markdown.js';

/** A flag naming a markdown file ("-": stdin), read and sent as the Document the API takes (e.g. --instructions). */
export function instructionsFlag() {
  return Flags.string({
    description: 'Markdown file with instructions for the translator ("-": standard input)',
    parse: async (file) => {
      let text: string;
      try {
        text = readFileSync(file === '-' ? 0 : file, 'utf8');
      } catch (err) {
        throw new Error(`instructions: cannot read ${file}: ${(err as Error).message}`);
      }
      return (await markdownToDocument(text)) as any;
    },
  });
}
