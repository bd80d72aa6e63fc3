import * as Errors from '@oclif/core/errors';
import { createRequire } from 'node:module';
import { DocsError } from '../../src/kernel/errors.js';

const require = createRequire(import.meta.url);

// oclif's parse errors come as several lines ("Missing 2 required args:\nspaceId  ...\nSee more
// help with --help") or wrapped ("Parsing --limit \n\t..."); the first line alone drops the names.
// Here each becomes one readable DocsError (exit 2) that names every argument or flag at fault.

/** The shell's convention for a command ended by Ctrl-C (128 + SIGINT). */
export const INTERRUPTED_EXIT = 130;

const ANSI = /\u001b\[[0-9;]*m/g;
const SEE_HELP = /\n?See more help with --help\s*$/;
export const argName = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/-/g, '_')
    .toUpperCase();

/** Ctrl-C in an @inquirer prompt (it throws instead of letting the signal end the process). */
export function isPromptInterrupt(err: unknown): boolean {
  return err instanceof Error && (err.name === 'ExitPromptError' || err.name === 'AbortPromptError');
}

/**
 * A server's 400 names the request's field ("limit: must be ...", "body.title: ..."); at the
 * command line that value was a flag: say --limit, as every other bad-input message does.
 */
export function fieldAsFlag(e: DocsError, flags: Record<string, unknown>): DocsError {
  const m = e.kind === 'invalid' ? /^(?:query\.|body\.)?([A-Za-z][A-Za-z0-9]*)((?:[.[][^\s:]*)?): /.exec(e.message) : null;
  const flag = m && m[1]!.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
  if (!m || !flag || !flags[flag] || flag === 'json') return e;
  return new DocsError('invalid', `--${flag}${m[2] ? ` (${m[1]}${m[2]})` : ''}: ${e.message.slice(m[0].length)}`);
}

/**
 * `--published=maybe`: oclif reads a switch's "=value" as an extra argument ("unexpected
 * argument: maybe"); say instead that the switch takes no value.
 */
export function switchWithValue(e: DocsError, argv: readonly string[], flags: Record<string, any>): DocsError {
  const m = /^unexpected arguments?: (.*?) \(/.exec(e.message);
  if (!m) return e;
  for (const a of argv) {
    const v = /^--([\w-]+)=(.*)$/.exec(a);
    const name = v?.[1]?.replace(/^no-/, '');
    if (v && name && flags[name]?.type === 'boolean' && m[1]!.split(', ').includes(v[2]!)) {
      return new DocsError('invalid', `--${v[1]}: a switch takes no value, got "${v[2]}" (use --${name}${flags[name].allowNo ? ` or --no-${name}` : ''})`);
    }
  }
  return e;
}

/**
 * The nearest of `known` to `typed`, or undefined when none is near enough to be what was meant:
 * an edit distance within a third of the word (at least 2: a swap of two letters), or one name starting with the other
 * (`--parent-collection` for `--parent`). fastest-levenshtein is loaded only on such an error.
 */
export function nearest(typed: string, known: readonly string[]): string | undefined {
  if (!typed || !known.length) return undefined;
  const { closest, distance } = require('fastest-levenshtein') as typeof import('fastest-levenshtein');
  const best = closest(typed, [...known]);
  if (distance(typed, best) <= (typed.length < 3 ? 1 : Math.max(2, Math.floor(typed.length / 3)))) return best;
  const prefixed = known.filter((k) => k.length >= 3 && (typed.startsWith(k) || k.startsWith(typed)));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/**
 * Suggestions for what was mistyped, as for commands: an unknown flag names the nearest of the
 * command's flags (`--jsn`: did you mean --json?), a value outside a flag's choices the nearest
 * choice (`--visibility publc`: did you mean public?).
 */
export function withSuggestion(e: DocsError, flags: Record<string, any>): DocsError {
  if (e.kind !== 'invalid') return e;
  const unknown = /^unknown flag: --([\w-]+)(?:=\S*)? \((.*)\)$/.exec(e.message);
  if (unknown) {
    const names = Object.entries(flags).flatMap(([name, f]) => [name, ...((f?.aliases as string[]) ?? [])]);
    const near = nearest(unknown[1]!, names);
    if (near) return new DocsError('invalid', `unknown flag: --${unknown[1]}. Did you mean --${near}? (${unknown[2]})`);
    return e;
  }
  const choice = /^Expected --([\w-]+)=(.*) to be one of: (.*) \((see .*)\)$/.exec(e.message);
  if (choice) {
    const options = choice[3]!.split(', ');
    const near = nearest(choice[2]!, options);
    return new DocsError(
      'invalid',
      `--${choice[1]}: "${choice[2]}" is not one of ${options.join(', ')}${near ? `. Did you mean ${near}?` : ''} (${choice[4]})`,
    );
  }
  return e;
}

/** The DocsError a command error stands for; anything unknown is a bug (exit 1). */
export function toDocsError(err: Error, command: string): DocsError {
  if (err instanceof DocsError) return err;
  const help = `see ${command} --help`;
  const text = (err.message ?? '').replace(ANSI, '').replace(SEE_HELP, '');
  // A flag's own parse function failed (ours throw "must be a number" and such).
  const parsing = /^Parsing --([\w-]+)\s*\n\t?([\s\S]*)$/.exec(text);
  if (parsing) return new DocsError('invalid', `--${parsing[1]}: ${parsing[2]!.trim().replace(/^[\w-]+:?\s+(?=must|is|cannot)/, '')} (${help})`);
  if (!(err instanceof Errors.CLIError)) return new DocsError('bug', `internal error: ${err.message}`);
  const args = (err as { args?: { name: string }[] }).args;
  if (/^Missing \d+ required args?/.test(text) && Array.isArray(args)) {
    const names = args.map((a) => argName(a.name));
    return new DocsError('invalid', `missing argument${names.length === 1 ? '' : 's'} ${names.join(', ')} (${help})`);
  }
  const unexpected = /^Unexpected arguments?: (.*)$/.exec(text);
  if (unexpected) return new DocsError('invalid', `unexpected argument${unexpected[1]!.includes(',') ? 's' : ''}: ${unexpected[1]} (${help})`);
  const nonexistent = /^Nonexistent flags?: (.*)$/.exec(text);
  if (nonexistent) return new DocsError('invalid', `unknown flag${nonexistent[1]!.includes(',') ? 's' : ''}: ${nonexistent[1]} (${help})`);
  const requiredFlags = [...text.matchAll(/Missing required flag ([\w-]+)/g)].map((m) => `--${m[1]}`);
  if (requiredFlags.length) return new DocsError('invalid', `missing flag${requiredFlags.length === 1 ? '' : 's'} ${requiredFlags.join(', ')} (${help})`);
  // "The following error(s) occurred:" then the reasons, one per line: keep the reasons.
  const reasons = /^The following errors? occurred:\s*\n([\s\S]*)$/.exec(text);
  if (reasons)
    return new DocsError(
      'invalid',
      `${reasons[1]!
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean)
        .join('; ')} (${help})`,
    );
  return new DocsError(
    'invalid',
    `${text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .join('; ')} (${help})`,
  );
}
