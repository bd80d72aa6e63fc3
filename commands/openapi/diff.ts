import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { DocsCommand } from '../_lib/base.js';
import { githubLines, storedReader, summaryLine, textLines } from '../_lib/openapi-diff.js';
import { diffCache } from '../_lib/openapi-diff-cache.js';
import { orgFlag } from '../_lib/org.js';
import { withoutOptimizer } from '../_lib/without-optimizer.js';
import { diffSpecs } from '../../src/openapi/diff/classify.js';
import { type LocalFile, loadSpec, readLocal } from '../../src/openapi/diff/load.js';

export default class Diff extends DocsCommand {
  static summary = 'Compare two versions of an OpenAPI spec: every change, breaking or not';
  static description =
    `OLD and NEW are each a file (JSON or YAML, its relative $refs read beside it), an http(s) URL (fetched through the same outbound guard as the server's), or a stored spec of the organization: SPEC (its latest version) or SPEC@VERSION_ID.
Each change is breaking (a client written against OLD can fail against NEW), warning (it may) or non-breaking, by the rules of oasdiff, Bump.sh and Redocly (see docs/manual/openapi.md#breaking-changes-gates-and-dry-runs). A change inside a referenced schema is listed once, with the operations that use it.
Exit 0 whatever the changes; with --fail-on-breaking, exit 1 when a change is breaking. Exit 2 when a side cannot be read or parsed (file: line, column: message).`;
  static examples = [
    '<%= config.bin %> openapi diff petstore ./openapi.yaml',
    '<%= config.bin %> openapi diff petstore@0bTgR2yWv1xZx3AbCdEf petstore --json',
    '<%= config.bin %> openapi diff old.yaml new.yaml --fail-on-breaking --format github',
  ];
  static args = {
    old: Args.string({ description: 'the old side: FILE, URL, SPEC or SPEC@VERSION', required: true }),
    new: Args.string({ description: 'the new side: FILE, URL, SPEC or SPEC@VERSION', required: true }),
  };
  static flags = {
    org: orgFlag(),
    'fail-on-breaking': Flags.boolean({ description: 'Exit 1 when a change is breaking' }),
    format: Flags.string({
      description: 'Output: a text table, or GitHub annotations (::error / ::warning / ::notice)',
      options: ['text', 'github'],
      default: 'text',
    }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(Diff);
    // The transport (and the store or server behind it) only when a side is a stored spec.
    const stored = storedReader(flags, () => this.transport(flags));
    // Two local files read once, here: their result may be in the cache (content addressed).
    const oldFile = readable(args.old);
    const newFile = readable(args.new);
    const cache = oldFile && newFile ? diffCache(oldFile, newFile) : undefined;
    let result = cache?.get();
    if (!result) {
      const [oldSpec, newSpec] = await Promise.all([loadSpec(args.old, stored, oldFile), loadSpec(args.new, stored, newFile)]);
      result = withoutOptimizer(() => diffSpecs(oldSpec, newSpec));
      cache?.set(result);
    }
    if (!this.jsonEnabled()) {
      // The new side's path, when it is a file (loadSpec's `path`).
      const lines = flags.format === 'github' ? [...githubLines(result, newFile ? args.new : undefined), summaryLine(result)] : textLines(result);
      process.stdout.write(lines.join('\n') + '\n');
    }
    if (flags['fail-on-breaking'] && result.summary.breaking > 0) {
      process.stderr.write(`Error: ${result.summary.breaking} breaking change${result.summary.breaking === 1 ? '' : 's'} from ${args.old} to ${args.new}\n`);
      process.exitCode = 1;
    }
    return { old: args.old, new: args.new, summary: result.summary, changes: result.changes };
  }
}

/** The side read when it is a local file; undefined when it is not one or cannot be read (loadSpec then says why, as before). */
function readable(arg: string): LocalFile | undefined {
  try {
    return readLocal(arg);
  } catch {
    return undefined;
  }
}
