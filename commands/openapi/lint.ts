import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { readFileSync } from 'node:fs';
import { DocsCommand } from '../_lib/base.js';
import { DocsError } from '../../src/kernel/errors.js';

// The checks `openapi put` runs (parse as JSON or YAML 1.2, Swagger 2.0 / OpenAPI 3.x schema
// validation and the spec's own rules by @readme/openapi-parser), on local files, each problem
// with its line and column. No other linter library is bundled (see docs/manual/openapi.md).

export default class Lint extends DocsCommand {
  static summary = 'Check OpenAPI files as a put would, each problem as file:line:column';
  static description =
    'Exit 0 when every file is a valid OpenAPI 3.x or Swagger 2.0 document, 1 when one has problems, 2 when a file cannot be read. Relative $refs to other files are not followed (as for a put --file: bundle first, or put by --url).';
  static examples = ['<%= config.bin %> openapi lint openapi.yaml', '<%= config.bin %> openapi lint api/*.yaml --format github'];
  static strict = false;
  static args = { file: Args.string({ description: 'OpenAPI file(s), JSON or YAML', required: true }) };
  static flags = {
    format: Flags.string({
      description: 'Output: file:line:column lines, or GitHub annotations (::error file=...,line=...)',
      options: ['text', 'github'],
      default: 'text',
    }),
  };

  async run(): Promise<unknown> {
    const { argv, flags } = await this.parse(Lint);
    const { processSource } = await import('../../src/openapi/pipeline.js');
    const { locateErrors, locatedLine } = await import('../../src/openapi/locate.js');
    const results = [];
    for (const file of argv as string[]) {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (err) {
        throw new DocsError('invalid', `${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
      }
      const outcome = await processSource({ text });
      const problems = outcome.ok ? [] : await locateErrors(outcome.errors, file, text);
      results.push({ file, valid: outcome.ok, problems });
      if (this.jsonEnabled()) continue;
      for (const p of problems) {
        if (flags.format === 'github') {
          const props = [`file=${file}`, ...(p.line ? [`line=${p.line}`, `col=${p.column}`] : []), `title=OpenAPI ${p.code ?? 'problem'}`].join(',');
          this.log(`::error ${props}::${p.message.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}${p.pointer ? ` (at ${p.pointer})` : ''}`);
        } else this.log(locatedLine(p));
      }
    }
    const bad = results.filter((r) => !r.valid);
    if (!this.jsonEnabled()) {
      const n = bad.reduce((k, r) => k + r.problems.length, 0);
      process.stderr.write(
        bad.length
          ? `${n} problem${n === 1 ? '' : 's'} in ${bad.length} of ${results.length} file${results.length === 1 ? '' : 's'}\n`
          : `${results.length} file${results.length === 1 ? '' : 's'}: valid\n`,
      );
    }
    if (bad.length) process.exitCode = 1;
    return { files: results };
  }
}
