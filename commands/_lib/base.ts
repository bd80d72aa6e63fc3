// Subpaths, not '@oclif/core': its index loads every part of oclif (help, ux, ...) at start.
import { Command } from '@oclif/core/command';
import * as Errors from '@oclif/core/errors';
import * as Flags from '@oclif/core/flags';
import type { Input, ParserOutput } from '@oclif/core/interfaces';
import { format } from 'node:util';
import { interactive } from './confirm.js';
import { organizationOf } from './org.js';
import { pick, pickerFor } from './pick.js';
import { fieldAsFlag, INTERRUPTED_EXIT, switchWithValue, isPromptInterrupt, toDocsError, withSuggestion } from './cli-errors.js';
import { jqExpression, runJq } from './jq.js';
import type { Transport } from '../../src/transport/types.js';

/**
 * The base of every command: the global transport flags, one transport per command run, and
 * errors as one readable line on stderr with the exit code of DESIGN.md's table. With --json,
 * oclif prints what `run` returns (the API body), and errors as the contract's error body.
 */
export abstract class DocsCommand extends Command {
  static enableJsonFlag = true;

  /**
   * The API operations this command exists to perform (not the lists its pickers read). Every
   * served operation is in some command's list: test/commands/every-operation.test.ts walks the
   * registry (docs/manual/tooling.md#every-operation-has-a-command).
   */
  static operations: readonly string[] = [];

  static baseFlags = {
    'api-url': Flags.string({
      description: 'Send calls to this API server (e.g. http://127.0.0.1:7780) instead of the local data directory.',
      env: 'DOCS_API_URL',
      helpGroup: 'GLOBAL',
    }),
    token: Flags.string({ description: 'Bearer token (with --api-url, or to act as another user in-process).', env: 'DOCS_TOKEN', helpGroup: 'GLOBAL' }),
    data: Flags.string({ description: 'Data directory of the embedded store (default: a per-user data directory).', env: 'DOCS_DATA', helpGroup: 'GLOBAL' }),
    profile: Flags.string({ description: 'Saved login to use (see docs auth login).', helpGroup: 'GLOBAL' }),
    jq: Flags.string({ description: 'Filter the JSON output with this jq expression (implies --json; strings print raw)', helpGroup: 'GLOBAL' }),
    store: Flags.string({
      description: 'A PostgreSQL store (postgres://user@host/db[?schema=name]) instead of the data directory, which then keeps file bytes only.',
      env: 'DOCS_STORE',
      helpGroup: 'GLOBAL',
    }),
  };

  private transportInstance?: Transport;

  /** --jq implies --json (as gh's). */
  jsonEnabled(): boolean {
    return super.jsonEnabled() || (Boolean((this.constructor as typeof Command).enableJsonFlag) && jqExpression(this.argv) !== undefined);
  }

  /**
   * With --jq: oclif's JSON output (printed after `finally`, synchronously) is captured and
   * printed through jq once the command is done.
   */
  async _run<T>(): Promise<T> {
    const expression = this.jsonEnabled() ? jqExpression(this.argv) : undefined;
    if (expression === undefined) return super._run<T>();
    let captured: { value: unknown } | undefined;
    this.logJson = (json: unknown) => void (captured = { value: json });
    const result = await super._run<T>();
    if (captured) {
      try {
        const out = await runJq(captured.value, expression);
        process.stdout.write(out.endsWith('\n') || out === '' ? out : out + '\n');
      } catch (err) {
        const e = toDocsError(err as Error, `${this.config.bin} ${this.id?.replace(/:/g, ' ') ?? ''}`.trim());
        process.stderr.write(`Error: ${e.message}\n`);
        process.exitCode = e.exitCode;
      }
    }
    return result;
  }

  /**
   * On a terminal, a required id argument left out is picked from a list (pick.ts) instead of
   * failing the parse: those arguments are parsed as optional, then asked in order. Elsewhere
   * (scripts, pipes) nobody can answer: oclif's "missing argument" error stands (exit 2).
   */
  protected async parse<F extends Record<string, any>, B extends Record<string, any>, A extends Record<string, any>>(
    options?: Input<F, B, A>,
    argv?: string[],
  ): Promise<ParserOutput<F, B, A>> {
    const opts = (options ?? this.ctor) as Input<F, B, A>;
    const pickable = Object.entries<any>(opts.args ?? {})
      .filter(([name, a]) => a.required && pickerFor(name))
      .map(([name]) => name);
    if (!pickable.length || !interactive()) return super.parse(opts, argv);
    // Same options, those arguments optional (own props copied: oclif spreads the options).
    const args = Object.fromEntries(Object.entries<any>(opts.args!).map(([name, a]) => [name, pickable.includes(name) ? { ...a, required: false } : a]));
    const relaxed = Object.assign(Object.create(opts as object), { ...opts, args }) as Input<F, B, A>;
    const out = await super.parse(relaxed, argv);
    const flags = out.flags as Record<string, any>;
    if (!pickable.some((name) => (out.args as any)[name] === undefined)) return out;
    const transport = await this.transport(flags);
    // A command with --org: its pickers list in that organization, resolved once (and kept in
    // the flags, so the command does not resolve it again).
    const organization = 'org' in (opts.flags ?? {}) ? async () => (flags.org ??= await organizationOf(flags, transport)) : undefined;
    for (const name of Object.keys(opts.args!)) {
      if (pickable.includes(name) && (out.args as any)[name] === undefined) {
        (out.args as any)[name] = await pick(name, { transport, values: out.args as Record<string, string>, flags, organization });
      }
    }
    return out;
  }

  /** Operations this run sends without the transport's contract check: the command checked them itself (naming its flags). */
  protected unchecked = new Set<string>();

  /** The transport chosen from flags, environment, profile and data-directory lock. */
  protected async transport(flags: { 'api-url'?: string; token?: string; data?: string; profile?: string; store?: string }): Promise<Transport> {
    if (!this.transportInstance) {
      // Loaded here, not with the command: a command that works offline (content check of a
      // folder, openapi diff of two files) loads no store, lock or HTTP client (issue 30).
      const { selectTransport } = await import('../../src/transport/select.js');
      const t = await selectTransport({
        apiUrl: flags['api-url'],
        token: flags.token,
        data: flags.data,
        store: flags.store,
        profile: flags.profile,
        notice: (m) => process.stderr.write(m + '\n'),
      });
      // Over HTTP, every call is checked against the contract before it is sent (in process,
      // invoke checks it before anything is read or written): bad input never leaves.
      if (t.remote) {
        const call = t.call.bind(t);
        t.call = async (operationId, input = {}) => {
          if (!this.unchecked.has(operationId)) (await import('./request-check.js')).checkRequest(operationId, input, {}, this.id);
          return call(operationId, input);
        };
      }
      this.transportInstance = t;
    }
    return this.transportInstance;
  }

  /**
   * --json output. oclif colorizes it by tokenizing the text one regex match at a time (16 ms of
   * a `spaces list` of 100 spaces); without a JSON color theme there is no color to add, so the
   * same text (oclif's: JSON.stringify, 2 spaces, cycles aside) is written as oclif writes it.
   */
  logJson(json: unknown): void {
    if (this.config.theme?.json) return super.logJson(json);
    console.log(format(JSON.stringify(json, undefined, 2)));
  }

  async finally(err: Error | undefined): Promise<void> {
    await this.transportInstance?.close();
    return super.finally(err);
  }

  async catch(err: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<any> {
    if (err instanceof Errors.ExitError) throw err;
    // A parse that failed was still a parse: no "did not parse its arguments" warning (NODE_ENV=test).
    (this as unknown as { parsed: boolean }).parsed = true;
    if (isPromptInterrupt(err)) {
      // Ctrl-C at a prompt: the user's choice, not a failure to report.
      process.stderr.write('\n');
      process.exitCode = INTERRUPTED_EXIT;
      return;
    }
    const flags = { ...(this.constructor as typeof DocsCommand).baseFlags, ...(this.constructor as { flags?: Record<string, any> }).flags };
    const e = withSuggestion(
      switchWithValue(fieldAsFlag(toDocsError(err, `${this.config.bin} ${this.id?.replace(/:/g, ' ') ?? ''}`.trim()), flags), this.argv, flags),
      // oclif adds --json itself to a command that enables it.
      (this.constructor as { enableJsonFlag?: boolean }).enableJsonFlag ? { ...flags, json: {} } : flags,
    );
    if (e.kind === 'bug' && process.env.DEBUG) process.stderr.write((err.stack ?? '') + '\n');
    if (this.jsonEnabled() && jqExpression(this.argv) === undefined) process.stdout.write(JSON.stringify(e.toBody(), null, 2) + '\n');
    process.stderr.write(`Error: ${e.message}\n`);
    process.exitCode = e.exitCode;
  }
}
