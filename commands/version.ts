import { DocsCommand } from './_lib/base.js';

// `docs version`: the line of `docs --version`; with --json, the parts of it.
export default class Version extends DocsCommand {
  // No transport: none of the global API flags.
  static baseFlags = {} as typeof DocsCommand.baseFlags;
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
