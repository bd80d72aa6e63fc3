import { Command } from '@oclif/core/command';

// `docs version`: the line of `docs --version`; with --json, the parts of it.
export default class Version extends Command {
  static summary = 'Show the version of docs (same as docs --version)';
  static enableJsonFlag = true;
  static examples = ['<%= config.bin %> version', '<%= config.bin %> version --json'];

  async run(): Promise<{ version: string; platform: string; arch: string; node: string }> {
    await this.parse(Version);
    const info = { version: this.config.version, platform: process.platform, arch: process.arch, node: process.version };
    if (!this.jsonEnabled()) this.log(`docs/${info.version} ${info.platform}-${info.arch} node-${info.node}`);
    return info;
  }
}
