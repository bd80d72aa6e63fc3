import * as Flags from '@oclif/core/flags';
import * as Args from '@oclif/core/args';
import { DocsError } from '../../src/kernel/errors.js';
import { DocsCommand } from '../_lib/base.js';
import { faceFlag, readFaces, uploadFaces } from '../_lib/font-faces.js';
import { orgFlag, organizationOf } from '../_lib/org.js';

export default class FontsUpdate extends DocsCommand {
  static operations = ['generateStorageUploadURL', 'updateCustomFont'];
  static summary = 'Change a custom font: rename its family, add or replace a weight, remove one (WEIGHT=none)';
  static description =
    `API: POST /v1/orgs/{organizationId}/storage/upload for each new file, then POST /v1/orgs/{organizationId}/fonts/{fontId} (updateCustomFont).
Weight 400 cannot be removed. Each file must be a font by its bytes, as for docs fonts create.`;
  static examples = [
    '<%= config.bin %> fonts update fnt4Vb8QmZp1LkS2xTc9 --face 700=./BrandSans-Bold.woff2',
    '<%= config.bin %> fonts update fnt4Vb8QmZp1LkS2xTc9 --family "Brand Sans 2" --face 900=none',
  ];
  static args = { fontId: Args.string({ description: 'The font (its ID)', required: true }) };
  static flags = {
    org: orgFlag(),
    family: Flags.string({ description: 'A new font family name' }),
    face: faceFlag(false),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(FontsUpdate);
    if (flags.family === undefined && !flags.face?.length) throw new DocsError('invalid', 'nothing to change: give --family or --face');
    const faces = readFaces(flags.face);
    const transport = await this.transport(flags);
    const organizationId = await organizationOf(flags, transport);
    const fontFaces = await uploadFaces(transport, organizationId, faces);
    const body = { ...(flags.family !== undefined ? { fontFamily: flags.family } : {}), ...(fontFaces.length ? { fontFaces } : {}) };
    const font = (await transport.call('updateCustomFont', { path: { organizationId, fontId: args.fontId }, body })).body as any;
    if (!this.jsonEnabled()) this.log(`✓ Updated font "${font.fontFamily}" (${font.id}), weights ${font.fontFaces.map((f: any) => f.weight).join(', ')}`);
    return font;
  }
}
