import * as Flags from '@oclif/core/flags';
import { readFileSync } from 'node:fs';
import { markdownToDocument } from '../../src/documents/markdown.js';

/** A flag naming a markdown file ("-": stdin), read and sent as the Document the API takes. */
export function markdownFlag(field: string, description: string) {
  return Flags.string({
    description: `${description} ("-": standard input), sent as a Document`,
    parse: async (file) => {
      let text: string;
      try {
        text = readFileSync(file === '-' ? 0 : file, 'utf8');
      } catch (err) {
        throw new Error(`${field}: cannot read ${file}: ${(err as Error).message}`);
      }
      return (await markdownToDocument(text)) as any;
    },
  });
}

/** --instructions of translations. */
export const instructionsFlag = () => markdownFlag('instructions', 'Markdown file with instructions for the translator');

/** --description of change requests. */
export const descriptionFlag = () => markdownFlag('description', 'Markdown file with the description');
