import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { readFileSync } from 'node:fs';
import { DocsCommand } from '../_lib/base.js';
import { startSpinner } from '../_lib/color.js';
import { DocsError } from '../../src/kernel/errors.js';
import type { Transport } from '../../src/transport/types.js';
import { orgFlag, organizationOf } from '../_lib/org.js';
import { storedReader, summaryLine, textLines } from '../_lib/openapi-diff.js';
import type { DiffResult } from '../../src/openapi/diff/classify.js';
import type { SpecFiles } from '../../src/openapi/diff/resolve.js';

type Spec = {
  slug: string;
  permissions?: { edit: boolean };
  processingState: string;
  visibility: string;
  lastVersion?: string;
  lastProcessErrorCode?: string;
  lastProcessedErrors?: { message: string; code?: string }[];
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Processing failed: exit 2, the invalid-input code (the source given is not a usable spec). */
export const EXIT_FAILED = 2;

export default class Put extends DocsCommand {
  static operations = ['createOrUpdateOpenAPISpecBySlug', 'updateOpenAPISpecBySlug', 'getOpenAPISpecBySlug', 'getOpenAPISpecVersionById'];
  static summary = 'Publish an OpenAPI spec by slug (create or update), for CI';
  static description = `API: PUT /v1/orgs/{organizationId}/openapi/{specSlug} (createOrUpdateOpenAPISpecBySlug), then PATCH for --visibility. Never prompts.
With --wait, waits until processing is complete: exit 0 when it succeeded; exit 2 when it failed (every error printed on stderr as file: location: message); exit 1 when --timeout passes first. Without a server, --wait processes in this process; without --wait, an in-process put leaves the spec pending until \`docs serve\` (or another put --wait) runs on the data directory.
A --file is parsed and validated here first: an invalid one exits 2 (file:line:column: message) and nothing is sent, so a failed put stores nothing. A --url put that creates the spec and fails processing under --wait deletes the spec it created.
--fail-on-breaking compares the source with the spec's latest version first (docs openapi diff) and exits 1 without sending anything when a change is breaking. --dry-run sends nothing: it says whether the spec would be created, whether a new version would be made, and the changes against the latest version (exit codes as the real put: 2 invalid, 1 breaking with --fail-on-breaking, 4 not allowed).`;
  static examples = [
    '<%= config.bin %> openapi put petstore --file ./openapi.yaml --wait',
    '<%= config.bin %> openapi put petstore --file ./openapi.yaml --fail-on-breaking --wait',
    '<%= config.bin %> openapi put petstore --file ./openapi.yaml --dry-run',
    '<%= config.bin %> openapi put petstore --url https://example.com/openapi.json --visibility public --wait --timeout 120 --json',
    'DOCS_API_URL=http://127.0.0.1:7780 DOCS_TOKEN=$TOKEN <%= config.bin %> openapi put petstore --file openapi.yaml --wait',
  ];
  static args = { specSlug: Args.string({ description: 'slug of the spec (lowercase letters and digits, hyphen-separated)', required: true }) };
  static flags = {
    file: Flags.string({ description: 'Local file with the spec (JSON or YAML), sent as text' }),
    url: Flags.string({ description: 'http(s) URL the server fetches the spec from' }),
    org: orgFlag(),
    visibility: Flags.string({ description: 'Set the visibility too', options: ['private', 'public'] }),
    wait: Flags.boolean({ description: 'Wait until processing is complete' }),
    timeout: Flags.integer({ description: 'Seconds --wait waits at most', default: 300, min: 1 }),
    'fail-on-breaking': Flags.boolean({ description: 'Refuse (exit 1, nothing sent) a source with a breaking change against the latest version' }),
    'dry-run': Flags.boolean({ description: 'Change nothing: say what the put would do (created or not, new version or not, the changes)' }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(Put);
    if ((flags.file === undefined) === (flags.url === undefined)) throw new DocsError('invalid', 'source: give exactly one of --file PATH or --url URL');
    // The file is read before anything else: a bad path fails without touching the server.
    const source = flags.file !== undefined ? { text: readSpecFile(flags.file) } : { url: flags.url! };
    // A file is processed here first, by the server's own pipeline: an invalid one is refused
    // before anything is stored (a typo in CI leaves no empty spec behind).
    let local: { filesystem: string; files: string[] } | undefined;
    if (source.text !== undefined) {
      const { processSource } = await import('../../src/openapi/pipeline.js');
      const outcome = await processSource({ text: source.text });
      if (!outcome.ok) return this.refuseInvalid(args.specSlug, flags.file!, source.text, outcome.errors, outcome.errorCode);
      local = outcome;
    }
    const transport = await this.transport(flags);
    const path = { organizationId: await organizationOf(flags, transport), specSlug: args.specSlug };
    if (flags['dry-run'] || flags['fail-on-breaking']) {
      const plan = await this.plan(transport, path, flags, local);
      if (flags['dry-run']) return this.showDryRun(plan, args.specSlug, flags['fail-on-breaking']);
      if (plan.diff && plan.diff.summary.breaking > 0) {
        process.stderr.write(
          `${textLines(plan.diff).join('\n')}\nError: ${args.specSlug}: not published: ${plan.diff.summary.breaking} breaking change${plan.diff.summary.breaking === 1 ? '' : 's'} against the latest version ${plan.existing!.lastVersion} (--fail-on-breaking); nothing was sent\n`,
        );
        process.exitCode = 1;
        return { spec: plan.existing, created: false, version: null, diff: plan.diff };
      }
    }
    if (flags.wait) transport.runWorkers?.(); // in-process: this process does the processing it waits for
    const put = await transport.call('createOrUpdateOpenAPISpecBySlug', { path, body: { source } });
    const created = put.status === 201;
    let spec = put.body as Spec;
    const previous = spec.lastVersion;
    if (flags.visibility && flags.visibility !== spec.visibility) {
      spec = (await transport.call('updateOpenAPISpecBySlug', { path, body: { visibility: flags.visibility } })).body as Spec;
    }
    if (!flags.wait) {
      if (!this.jsonEnabled()) {
        this.log(`${created ? 'Created' : 'Updated'} OpenAPI spec ${spec.slug}: processing ${spec.processingState}.`);
        if (!transport.remote)
          process.stderr.write(
            `Note: no server holds this data directory: ${spec.slug} is processed when \`docs serve\` runs on it, or by a put with --wait.\n`,
          );
      }
      return { spec, created };
    }
    spec = await this.waitForCompletion(transport, path, flags.timeout);
    if (spec.lastProcessErrorCode) {
      const errors = spec.lastProcessedErrors ?? [];
      process.stderr.write(`Processing of ${spec.slug} failed (${spec.lastProcessErrorCode}), ${errors.length} error${errors.length === 1 ? '' : 's'}:\n`);
      for (const e of errors) process.stderr.write(`${localName(e.message, flags.file)}\n`);
      process.exitCode = EXIT_FAILED;
      // A spec this put created that never got a version: removed, so a failed put keeps nothing.
      if (created && !spec.lastVersion) {
        await transport.call('deleteOpenAPISpecBySlug', { path });
        process.stderr.write(`The spec ${spec.slug} created by this put was deleted: nothing was kept.\n`);
      }
      return { spec, created, version: null };
    }
    const version =
      spec.lastVersion && spec.lastVersion !== previous
        ? (await transport.call('getOpenAPISpecVersionById', { path: { ...path, versionId: spec.lastVersion } })).body
        : null;
    if (!this.jsonEnabled()) {
      this.log(
        version
          ? `Published ${spec.slug}: new version ${spec.lastVersion}.`
          : `Published ${spec.slug}: content unchanged, no new version (latest: ${spec.lastVersion}).`,
      );
    }
    return { spec, created, version };
  }

  /** An invalid --file: every error with its line and column, exit 2, nothing sent. */
  private async refuseInvalid(slug: string, file: string, text: string, errors: { message: string; code?: string }[], errorCode: string) {
    const { locateErrors, locatedLine } = await import('../../src/openapi/locate.js');
    const located = await locateErrors(errors, file, text);
    process.stderr.write(
      `${slug}: not published: ${file} is not a valid OpenAPI document (${errorCode}), ${errors.length} error${errors.length === 1 ? '' : 's'}; nothing was sent:\n`,
    );
    for (const e of located) process.stderr.write(locatedLine(e) + '\n');
    process.exitCode = EXIT_FAILED;
    return { spec: null, created: false, version: null, errorCode, errors: located };
  }

  /** What the put would do: the spec as it is (or none), and the changes against its latest version. */
  private async plan(
    transport: Transport,
    path: { organizationId: string; specSlug: string },
    flags: { url?: string; org?: string },
    local: { filesystem: string } | undefined,
  ) {
    let existing: Spec | undefined;
    try {
      existing = (await transport.call('getOpenAPISpecBySlug', { path })).body as Spec;
    } catch (err) {
      if (!(err instanceof DocsError) || err.kind !== 'not_found') throw err;
    }
    if (existing && existing.permissions?.edit === false)
      throw new DocsError('forbidden', `publishing OpenAPI spec ${existing.slug}: needs the create role in the organization`);
    let next: SpecFiles;
    if (local) {
      const files = JSON.parse(local.filesystem) as Record<string, unknown>;
      next = { root: Object.keys(files)[0]!, files };
    } else {
      const { loadSpec } = await import('../../src/openapi/diff/load.js');
      next = await loadSpec(flags.url!, async () => ({ files: {} }));
    }
    if (!existing?.lastVersion) return { existing, next, diff: undefined, same: false };
    const { files: stored } = await storedReader({ org: path.organizationId }, async () => transport)(path.specSlug, existing.lastVersion);
    const { diffSpecs } = await import('../../src/openapi/diff/classify.js');
    const diff: DiffResult = diffSpecs({ root: Object.keys(stored)[0]!, files: stored }, next);
    // The server makes no version for the same content: the same stored text, or for a URL (whose
    // file names the server chooses) the same documents.
    const same = local ? JSON.stringify(stored) === local.filesystem : JSON.stringify(Object.values(stored)) === JSON.stringify(Object.values(next.files));
    return { existing, next, diff, same };
  }

  private showDryRun(plan: { existing?: Spec; diff?: DiffResult; same: boolean }, slug: string, failOnBreaking: boolean) {
    const breaking = (plan.diff?.summary.breaking ?? 0) > 0;
    const refused = failOnBreaking && breaking;
    const action = refused ? 'refused' : !plan.existing ? 'create' : plan.same ? 'unchanged' : plan.existing.lastVersion ? 'new-version' : 'first-version';
    if (!this.jsonEnabled()) {
      const what = {
        refused: `would be refused: breaking changes against the latest version ${plan.existing?.lastVersion} (--fail-on-breaking)`,
        create: `would be created, with its first version`,
        unchanged: `content unchanged: no new version would be made (latest: ${plan.existing?.lastVersion})`,
        'new-version': `would get a new version (latest now: ${plan.existing?.lastVersion})`,
        'first-version': `would get its first version`,
      }[action];
      this.log(`Dry run, nothing changed: OpenAPI spec ${slug} ${what}.`);
      if (plan.diff) this.log(plan.diff.changes.length ? textLines(plan.diff).join('\n') : summaryLine(plan.diff));
    }
    if (refused) process.exitCode = 1;
    return {
      dryRun: true,
      action,
      spec: plan.existing ?? null,
      created: !plan.existing,
      newVersion: action === 'create' || action === 'new-version' || action === 'first-version',
      diff: plan.diff ? { summary: plan.diff.summary, changes: plan.diff.changes } : null,
    };
  }

  /** Polls the spec until `complete`: a spinner on a terminal, a line per state change otherwise. */
  private async waitForCompletion(transport: Transport, path: Record<string, string>, timeoutS: number): Promise<Spec> {
    const deadline = Date.now() + timeoutS * 1000;
    const spinner = await startSpinner();
    let shown = '';
    try {
      for (let delay = 100; ; delay = Math.min(delay * 2, 1000)) {
        const spec = (await transport.call('getOpenAPISpecBySlug', { path })).body as Spec;
        const line = `openapi ${spec.slug}: ${spec.processingState}`;
        if (spinner) spinner.text = line;
        else if (line !== shown) process.stderr.write(line + '\n');
        shown = line;
        if (spec.processingState === 'complete') return spec;
        if (Date.now() + delay > deadline) {
          throw new DocsError(
            'unavailable',
            `openapi ${spec.slug}: still ${spec.processingState} after ${timeoutS} s; not finished (see docs openapi get ${spec.slug})`,
          );
        }
        await sleep(delay);
      }
    } finally {
      spinner?.stop();
    }
  }
}

function readSpecFile(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new DocsError('invalid', `file: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  if (!text.trim()) throw new DocsError('invalid', `file: ${file} is empty`);
  return text;
}

/** The server names a text source openapi.json / openapi.yaml: show the user's own path instead. */
function localName(message: string, file: string | undefined): string {
  return file ? message.replace(/^openapi\.(json|yaml): /, `${file}: `) : message;
}
