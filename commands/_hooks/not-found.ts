import { closest } from 'fastest-levenshtein';
import { DocsError } from '../../src/kernel/errors.js';

// oclif's command_not_found hook (package.json oclif.hooks). Two cases reach it:
// - `docs spaces list extra`: with a space as topic separator oclif reads "extra" as part of the
//   command's name when the command takes no argument; the user meant an argument, so say that.
// - `docs spcaes list`: a typo; name the nearest command, as gh does (never run it for them).
// Loaded only when a command is not found, so it costs nothing to a found command.

const DESTRUCTIVE = new Set([
  'delete',
  'remove',
  'revoke',
  'uninstall',
  'unpublish',
  'purge',
  'leave',
  'cancel',
  'reset',
  'transfer',
  'decline',
  'reject',
  'close',
  'restore',
  'merge',
  'logout',
]);

interface HookOptions {
  id: string;
  argv?: string[];
  config: { bin: string; commandIDs: string[]; topics: { name: string }[] };
}

export default async function notFound(opts: HookOptions): Promise<void> {
  const { id, config } = opts;
  const words = id.split(':');
  const ids = new Set(config.commandIDs);
  let error: DocsError;
  let prefix = words.length - 1;
  while (prefix > 0 && !ids.has(words.slice(0, prefix).join(':'))) prefix--;
  if (prefix > 0) {
    const command = words.slice(0, prefix).join(' ');
    const extra = words.slice(prefix);
    error = new DocsError('invalid', `unexpected argument${extra.length === 1 ? '' : 's'}: ${extra.join(', ')} (see ${config.bin} ${command} --help)`);
  } else {
    const typed = words.join(' ');
    // A destructive command is proposed only for a typo of its own verb ("delet"), never as the
    // nearest guess for something else ("spaces lits" must not become "spaces leave").
    const candidates = [...config.commandIDs, ...config.topics.map((t) => t.name)]
      .map((c) => c.replace(/:/g, ' '))
      .filter((c) => {
        const verb = c.split(' ').pop()!;
        return !DESTRUCTIVE.has(verb) || words.some((w) => w.length >= 3 && verb.startsWith(w.slice(0, 3)));
      });
    const near = candidates.length ? closest(typed, candidates) : undefined;
    error = new DocsError('invalid', `unknown command "${typed}"${near ? `. Did you mean "${config.bin} ${near}"?` : ''} (see ${config.bin} --help)`);
  }
  if ((opts.argv ?? []).includes('--json')) process.stdout.write(JSON.stringify(error.toBody(), null, 2) + '\n');
  process.stderr.write(`Error: ${error.message}\n`);
  process.exitCode = error.exitCode;
}
