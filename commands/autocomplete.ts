import * as Args from '@oclif/core/args';
import { DocsCommand } from './_lib/base.js';

// `docs autocomplete SHELL` prints a completion script that asks `docs __complete` for the
// candidates at each Tab (topics, commands, flags), as gh does; nothing is generated on disk.
const SCRIPTS: Record<string, string> = {
  bash: `# docs completion for bash: eval "$(docs autocomplete bash)" in ~/.bashrc
_docs_complete() {
  local IFS=$'\\n'
  COMPREPLY=($(compgen -W "$(docs __complete "\${COMP_WORDS[@]:1:COMP_CWORD-1}" 2>/dev/null)" -- "\${COMP_WORDS[COMP_CWORD]}"))
}
complete -o default -F _docs_complete docs
`,
  zsh: `# docs completion for zsh: eval "$(docs autocomplete zsh)" in ~/.zshrc (after compinit)
_docs() {
  local -a candidates
  candidates=("\${(@f)$(docs __complete "\${(@)words[2,CURRENT-1]}" 2>/dev/null)}")
  compadd -- "\${candidates[@]}"
}
compdef _docs docs
`,
  fish: `# docs completion for fish: docs autocomplete fish > ~/.config/fish/completions/docs.fish
complete -c docs -f -a '(docs __complete (commandline -opc)[2..-1])'
`,
};

export default class Autocomplete extends DocsCommand {
  // No transport: none of the global API flags.
  static baseFlags = {} as typeof DocsCommand.baseFlags;
  static enableJsonFlag = false;
  static summary = 'Print the shell completion script for bash, zsh or fish';
  static args = { shell: Args.string({ description: 'Shell to complete in', options: Object.keys(SCRIPTS), required: true }) };
  static examples = [
    'eval "$(<%= config.bin %> autocomplete bash)"     # in ~/.bashrc',
    'eval "$(<%= config.bin %> autocomplete zsh)"      # in ~/.zshrc, after compinit',
    '<%= config.bin %> autocomplete fish > ~/.config/fish/completions/docs.fish',
  ];

  async run(): Promise<void> {
    const { args } = await this.parse(Autocomplete);
    process.stdout.write(SCRIPTS[args.shell]!);
  }
}
