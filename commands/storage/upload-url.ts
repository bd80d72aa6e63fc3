import * as Flags from '@oclif/core/flags';
import { statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { DocsError } from '../../src/kernel/errors.js';
import { operationCommand } from '../_lib/operation-command.js';

const TYPES: Record<string, string> = {
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.tgz': 'application/gzip',
  '.tar': 'application/x-tar',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.json': 'application/json',
};

export default operationCommand({
  operationId: 'generateStorageUploadURL',
  description: 'Get a signed URL that takes one upload of a file (then PUT the file to it)',
  examples: [
    `<%= config.bin %> storage upload-url --org 6yZr3RyMqly3HeMx6Xkr --kind customization_font --file '{"name":"Inter.woff2","type":"font/woff2","size":48213}' --json`,
    '<%= config.bin %> storage upload-url --kind import_file --path ./docs.zip',
  ],
  orgFlag: true,
  summary: false,
  flags: {
    kind: Flags.string({
      description: 'What the file is for: an import archive, a font face, an organization file',
      options: ['import_file', 'customization_font', 'organization_file'],
    }),
    path: Flags.string({ description: 'A local file: its name, size and type (by extension) fill --file' }),
  },
  prepare: (req, flags) => {
    if (!flags.path) return;
    if (req.body?.file) throw new DocsError('invalid', 'file: give --file or --path, not both');
    let size: number;
    try {
      size = statSync(flags.path).size;
    } catch {
      throw new DocsError('invalid', `path: cannot read ${flags.path}`);
    }
    req.body = { ...req.body, file: { name: basename(flags.path), type: TYPES[extname(flags.path).toLowerCase()] ?? 'application/octet-stream', size } };
  },
});
