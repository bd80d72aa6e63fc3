import { Flags } from '@oclif/core';
import { readFileSync } from 'node:fs';
import { markdownToDocument } from '../../src/documents/markdown.js';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateChangeRequestById',
  description: "Change a change request's subject, status (draft, open, archived) or description",
  examples: [
    '<%= config.bin %> cr edit dHD9ZmkOPnfy9hWCsaQB 4 --subject "Fix the install guide"',
    '<%= config.bin %> cr edit dHD9ZmkOPnfy9hWCsaQB 4 --status draft',
    '<%= config.bin %> cr edit dHD9ZmkOPnfy9hWCsaQB 4 --status archived --json',
    '<%= config.bin %> cr edit dHD9ZmkOPnfy9hWCsaQB 4 --description why.md',
  ],
  flags: {
    // The API takes a Document: the flag takes markdown, as the other document flags do.
    description: Flags.string({
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
    }),
  },
});
