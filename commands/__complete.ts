import { Command } from '@oclif/core/command';

// The candidates of shell completion (called by the scripts `docs autocomplete` prints, at each
// Tab): the words typed before the cursor in, the next possible words out, one a line. Read from
// the manifest oclif has already loaded: no command file is imported, so a Tab costs a bare start.
export default class Complete extends Command {
  static hidden = true;
  static strict = false;
  static summary = 'Completion candidates for the words typed so far (used by docs autocomplete)';

  async run(): Promise<void> {
    const { argv } = await this.parse(Complete);
    const words = (argv as string[]).filter((w) => w !== '');
    // The command typed so far: the longest run of leading words that names one.
    let command;
    for (let n = words.length; n > 0 && !command; n--) command = this.config.findCommand(words.slice(0, n).join(':'));
    const out = new Set<string>();
    if (command) {
      for (const [name, flag] of Object.entries(command.flags ?? {})) {
        if (flag.hidden) continue;
        out.add(`--${name}`);
        if (flag.type === 'boolean' && (flag as { allowNo?: boolean }).allowNo) out.add(`--no-${name}`);
      }
    } else {
      // A topic (or nothing) so far: its commands and subtopics, one word further.
      const prefix = words.length ? words.join(':') + ':' : '';
      const depth = words.length;
      for (const id of [...this.config.commandIDs, ...this.config.topics.map((t) => t.name)]) {
        const c = this.config.findCommand(id);
        if (c?.hidden || !id.startsWith(prefix)) continue;
        const next = id.split(':')[depth];
        if (next) out.add(next);
      }
    }
    process.stdout.write([...out].sort().join('\n') + (out.size ? '\n' : ''));
  }
}
