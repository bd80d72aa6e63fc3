import { Command } from '@oclif/core/command';
import { loadHelpClass } from '@oclif/core/help';

// `docs help [TOPIC|COMMAND ...]`, the same text as `--help` (gh's and git's habit).
export default class Help extends Command {
  static summary = 'Show help for docs, a topic or a command';
  static strict = false;
  static args = {};
  static examples = ['<%= config.bin %> help', '<%= config.bin %> help spaces', '<%= config.bin %> help spaces list'];

  async run(): Promise<void> {
    const { argv } = await this.parse(Help);
    const HelpClass = await loadHelpClass(this.config);
    const words = argv as string[];
    // "spaces list" as the command id "spaces:list" (topics are separated by spaces).
    const id = words.join(':');
    if (words.length && !this.config.findCommand(id) && !this.config.findTopic(id)) {
      process.stderr.write(`Error: no command or topic "${words.join(' ')}" (see ${this.config.bin} --help)\n`);
      process.exitCode = 2;
      return;
    }
    await new HelpClass(this.config).showHelp(words.length ? [id] : []);
  }
}
