import * as Args from '@oclif/core/args';
import { DocsCommand } from '../_lib/base.js';
import { pdfFlags, savePdf } from '../_lib/pdf-save.js';

export default class CrPdf extends DocsCommand {
  static operations = ['getChangeRequestPDF'];
  static summary = "Save a change request's content as a PDF";
  static description =
    "API: GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/pdf (getChangeRequestPDF), then the URL it returns. Every page of the change request's revision in tree order, or one page (--page, --only).";
  static examples = [
    '<%= config.bin %> cr pdf dHD9ZmkOPnfy9hWCsaQB 4 -o review.pdf',
    '<%= config.bin %> cr pdf dHD9ZmkOPnfy9hWCsaQB 4 --page hsRODB46wWuaGYRjUICJ --only -o setup.pdf',
  ];
  static args = {
    spaceId: Args.string({ description: 'The space (its ID)', required: true }),
    changeRequestId: Args.string({ description: 'change request id or number', required: true }),
  };
  static flags = pdfFlags;

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(CrPdf);
    const saved = await savePdf(await this.transport(flags), 'getChangeRequestPDF', args, flags);
    if (!this.jsonEnabled() && saved.path !== '-') this.log(`Saved change request ${args.changeRequestId} as PDF (${saved.size} bytes) to ${saved.path}.`);
    return saved;
  }
}
