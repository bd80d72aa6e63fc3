import * as Flags from '@oclif/core/flags';
import { readFileSync } from 'node:fs';
import { DocsError } from '../../src/kernel/errors.js';
import { operationCommand } from '../_lib/operation-command.js';

// The API's plain create (409 if the slug exists); `docs openapi put` creates or updates, with
// checks, a lint and a breaking-change gate, and is what CI should use.
export default operationCommand({
  operationId: 'createOpenAPISpec',
  description: 'Create an OpenAPI spec from a file or a URL (fails if the slug exists; put creates or updates)',
  examples: [
    '<%= config.bin %> openapi create --slug petstore --file openapi.yaml',
    '<%= config.bin %> openapi create --slug petstore --url https://petstore3.swagger.io/api/v3/openapi.json --json',
  ],
  orgFlag: true,
  flags: {
    file: Flags.string({ description: 'The spec as a file (YAML or JSON), sent as text', exclusive: ['url', 'source'] }),
    url: Flags.string({ description: 'A URL this server fetches the spec from (through its outbound guard)', exclusive: ['file', 'source'] }),
    source: Flags.string({ hidden: true }),
  },
  prepare: (req, flags) => {
    if (!flags.file && !flags.url) throw new DocsError('invalid', 'missing flag --file or --url: where the spec comes from');
    const source = flags.file ? { text: readFileSync(flags.file, 'utf8') } : { url: flags.url };
    req.body = { ...req.body, source };
  },
});
