import * as Args from '@oclif/core/args';
import { DocsCommand } from '../_lib/base.js';
import { pdfFlags, savePdf } from '../_lib/pdf-save.js';

export default class SpacesPdf extends DocsCommand {
  static operations = ['getSpacePDF'];
  static summary = "Save a space's content as a PDF";
  static description =
    "API: GET /v1/spaces/{spaceId}/pdf (getSpacePDF), then the URL it returns. Every page of the space's current revision in tree order, or one page (--page, --only).";
  static examples = [
    '<%= config.bin %> spaces pdf dHD9ZmkOPnfy9hWCsaQB -o handbook.pdf',
    '<%= config.bin %> spaces pdf dHD9ZmkOPnfy9hWCsaQB --page DT8h1lNJY7eIeQFNSwF0 -o guide.pdf',
    '<%= config.bin %> spaces pdf dHD9ZmkOPnfy9hWCsaQB --page hsRODB46wWuaGYRjUICJ --only -o - > setup.pdf',
  ];
  static args = { spaceId: Args.string({ description: 'The space (its ID)', required: true }) };
  static flags = pdfFlags;

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(SpacesPdf);
    const saved = await savePdf(await this.transport(flags), 'getSpacePDF', args, flags);
    if (!this.jsonEnabled() && saved.path !== '-') this.log(`Saved space ${args.spaceId} as PDF (${saved.size} bytes) to ${saved.path}.`);
    return saved;
  }
}
