import * as Flags from '@oclif/core/flags';
import { DocsCommand } from '../_lib/base.js';
import { faceFlag, readFaces, uploadFaces } from '../_lib/font-faces.js';
import { orgFlag, organizationOf } from '../_lib/org.js';

export default class FontsCreate extends DocsCommand {
  static operations = ['generateStorageUploadURL', 'createCustomFont'];
  static summary = 'Add a custom font: a family and a file per weight, for the sites of the organization (styling.font)';
  static description =
    `API: POST /v1/orgs/{organizationId}/storage/upload for each file (a signed upload URL, then the bytes), then PUT /v1/orgs/{organizationId}/fonts (createCustomFont).
Each file must be a font by its bytes (WOFF2, WOFF, TrueType or OpenType, at most 4 MB): anything else is refused before anything is sent (exit 2). Use the font on a site with docs sites customize --font-id.`;
  static examples = ['<%= config.bin %> fonts create --family "Brand Sans" --face 400=./BrandSans-Regular.woff2 --face 700=./BrandSans-Bold.woff2'];
  static flags = {
    org: orgFlag(),
    family: Flags.string({ description: 'The font family name used in CSS (1 to 50 letters, digits, spaces, - or _)', required: true }),
    face: faceFlag(true),
  };

  async run(): Promise<unknown> {
    const { flags } = await this.parse(FontsCreate);
    const faces = readFaces(flags.face);
    const transport = await this.transport(flags);
    const organizationId = await organizationOf(flags, transport);
    const fontFaces = await uploadFaces(transport, organizationId, faces);
    const font = (await transport.call('createCustomFont', { path: { organizationId }, body: { fontFamily: flags.family, fontFaces } })).body as any;
    if (!this.jsonEnabled()) this.log(`✓ Added font "${font.fontFamily}" (${font.id}), weights ${font.fontFaces.map((f: any) => f.weight).join(', ')}`);
    return font;
  }
}
