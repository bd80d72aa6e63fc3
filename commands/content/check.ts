import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { lazyParser } from '../_lib/markdown-parser.js';
import { DocsError } from '../../src/kernel/errors.js';
import { DocsCommand } from '../_lib/base.js';
import { FORMATS, report, verdict, type Format } from '../_lib/check-report.js';
import { checkFolder, checkRemote, remoteExternalLinks, type CheckResult } from '../_lib/content-check.js';
import { checkExternal, externalOptions, type ExternalLink } from '../_lib/external-links.js';
import { naturalCompare } from '../_lib/content-folder.js';
import { readRepoConfig } from '../_lib/gitbook-yaml.js';
import { join } from 'node:path';
import { FactCache } from '../_lib/link-cache.js';

export default class ContentCheck extends DocsCommand {
  static operations = ['listSpaceLinks', 'listChangeRequestLinks'];
  static summary =
    'Check a folder of markdown (or a space, or a change request) before merging: broken links and anchors, missing images and files, SUMMARY.md';
  static description =
    'A folder (DIR) is read as `docs content push` reads it, nothing sent: links to pages that are not there, `page.md#anchor` and `#anchor` links to no heading of the page (its anchor as the published site spells it, or as GitHub does), images and other files not there, links leading outside the folder, markdown files SUMMARY.md does not list and SUMMARY.md entries without their file, a file listed twice, two files of one page path (a.md and a/README.md; Guide.md and guide.md). Every problem is reported, one per line (file:line: message). --space S asks the server for the broken links of the space (GET /v1/spaces/{spaceId}/links, listSpaceLinks); with --change-request N, of the content that change request would merge (listChangeRequestLinks). Exit 1 when something is broken, 0 when clean, 2 on bad input. SUMMARY.md entries linking to a URL are link pages (no file to find): their URL is checked as push checks it (http, https or mailto, no credentials). With --external, each distinct http(s) URL the pages link to is asked once (HEAD, else GET; redirects followed), at most --external-max of them, 8 at a time, each within --external-timeout: 404, 410, 5xx, no answer or a name that does not resolve is a broken-external problem (401, 403 and 429 count as there); an address the server-side guard refuses (loopback, private, link-local: DOCS_FETCH_ALLOW_PRIVATE=1 allows them) is listed as not checked, not broken. `docs content push --check` runs the folder check first and sends nothing when it fails.';
  static examples = [
    '<%= config.bin %> content check ./docs',
    '<%= config.bin %> content check ./docs --format github   # GitHub Actions: annotations on the pull request',
    '<%= config.bin %> content check ./docs --format junit > content-check.xml   # CI test report',
    "<%= config.bin %> content check --space dHD9ZmkOPnfy9hWCsaQB --change-request 4   # the server's check of a change request",
    '<%= config.bin %> content check ./docs --external --external-max 500   # and ask every http(s) link once',
  ];
  static args = { dir: Args.string({ description: 'folder of markdown (as `docs content push` reads it)' }) };
  static flags = {
    space: Flags.string({ description: "check this space's content on the server (its ID) instead of a folder" }),
    'change-request': Flags.string({ description: "with --space: check this change request's content (number or id)", dependsOn: ['space'] }),
    format: Flags.string({
      description: 'Output: file:line: message lines, GitHub annotations (::error file=...,line=...::), or a JUnit XML report',
      options: [...FORMATS],
      default: 'text',
    }),
    external: Flags.boolean({ description: 'also ask each http(s) link once (bounded; private and local addresses are not asked)' }),
    'external-max': Flags.integer({ description: 'with --external: distinct URLs asked at most', default: 200, min: 1, max: 10_000 }),
    'external-timeout': Flags.integer({ description: 'with --external: milliseconds each URL may take', default: 5000, min: 100, max: 60_000 }),
  };

  async run(): Promise<CheckResult> {
    const { args, flags } = await this.parse(ContentCheck);
    if (args.dir !== undefined && flags.space) throw new DocsError('invalid', 'give a folder (DIR) or --space, not both');
    if (args.dir === undefined && !flags.space)
      throw new DocsError(
        'invalid',
        'what to check: a folder (docs content check ./docs) or a space (--space S, with --change-request N for a change request)',
      );
    // A .gitbook.yaml naming a root: its pages are checked (as push reads them).
    let result: CheckResult;
    const external: ExternalLink[] = [];
    if (args.dir !== undefined) {
      // ... and its table of contents at structure.summary (docs/manual/docs-as-code.md#gitbookyaml).
      const { root, summary, warnings } = readRepoConfig(args.dir);
      for (const w of warnings) process.stderr.write(`Warning: ${w}\n`);
      const cache = FactCache.load();
      result = await checkFolder(root ? join(args.dir, root) : args.dir, lazyParser(), cache, summary, flags.external ? external : undefined);
      cache.save();
    } else {
      const transport = await this.transport(flags);
      result = await checkRemote(transport, flags.space!, flags['change-request']);
      if (flags.external) external.push(...(await remoteExternalLinks(transport, flags.space!, flags['change-request'])));
    }
    if (flags.external) {
      const got = await checkExternal(external, externalOptions(flags['external-max'], flags['external-timeout']));
      result.problems.push(...got.problems);
      result.problems.sort((a, b) => naturalCompare(a.file, b.file) || (a.line ?? 0) - (b.line ?? 0));
      result.counts.external = got.checked;
      result.notChecked = got.skipped;
      if (!this.jsonEnabled()) for (const n of got.skipped) process.stderr.write(`Warning: ${n.url}: ${n.why}\n`);
    }
    const format = flags.format as Format;
    if (!this.jsonEnabled()) {
      for (const line of report(result, format)) this.log(line);
      const last = verdict(result);
      if (result.problems.length) process.stderr.write(`Error: ${last}\n`);
      else if (format === 'text') this.log(last);
      else process.stderr.write(`${last}\n`);
    }
    if (result.problems.length) process.exitCode = 1;
    return result;
  }
}
