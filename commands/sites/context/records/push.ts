import { readFileSync } from 'node:fs';
import * as Flags from '@oclif/core/flags';
import { DocsError } from '../../../../src/kernel/errors.js';
import { operationCommand } from '../../../_lib/operation-command.js';

// One record from flags (--id, --title, --body or --file), or many from --input FILE (a JSON array
// of ContextRecordInput), into the site's builtin:api connection: the same --id replaces.
export default operationCommand({
  operationId: 'upsertSiteContextRecords',
  description:
    "Push records into a site's builtin:api context connection: one from flags, or a JSON array with --input; a record with the same --id is replaced",
  examples: [
    '<%= config.bin %> sites context records push szK9Qp2mTtR4bLx0aVn1 --id ticket-4711 --type ticket --title "Cannot reset my password" --body "The reset email never arrives."',
  ],
  orgFlag: true,
  flags: {
    id: Flags.string({ description: "The record's id in its source: pushing the same id again replaces the record" }),
    type: Flags.string({ description: 'What the record is', options: ['ticket', 'document'], default: 'document' }),
    title: Flags.string({ description: "The record's title (1 to 256 characters)" }),
    description: Flags.string({ description: 'A short description (at most 512 characters)' }),
    body: Flags.string({ description: "The record's content, as markdown" }),
    file: Flags.string({ description: "A markdown file whose text is the record's content (instead of --body)" }),
    url: Flags.string({ description: 'Where the record is in its source (http or https)' }),
  },
  prepare: (req, flags) => {
    if (flags.id === undefined) {
      if (!flags.input) throw new DocsError('invalid', '--id: give a record (--id, --title, --body or --file) or a JSON array of records with --input FILE');
      return;
    }
    if (flags.input) throw new DocsError('invalid', '--input: give one record with --id, or records with --input, not both');
    if (flags.body !== undefined && flags.file !== undefined) throw new DocsError('invalid', '--file: give --body or --file, not both');
    let body: string = flags.body ?? '';
    if (flags.file !== undefined) {
      try {
        body = readFileSync(flags.file, 'utf8');
      } catch (err) {
        throw new DocsError('invalid', `--file: cannot read ${flags.file}: ${(err as Error).message}`);
      }
    }
    if (flags.title === undefined) throw new DocsError('invalid', '--title: a record needs a title');
    req.body = [
      {
        id: flags.id,
        type: flags.type,
        title: flags.title,
        body,
        ...(flags.description !== undefined ? { description: flags.description } : {}),
        ...(flags.url !== undefined ? { url: flags.url } : {}),
      },
    ];
  },
  done: (_s, p) => `Pushed to the builtin:api connection of site ${p.siteId}.`,
});
