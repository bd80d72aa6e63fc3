import * as Flags from '@oclif/core/flags';
import { writeFileSync } from 'node:fs';
import type { Transport } from '../../src/transport/types.js';
import { safeSegment } from './pull-target.js';

// `docs spaces pdf` and `docs cr pdf`: ask the API for the PDF's URL, then fetch its bytes through
// the transport (over HTTP from the server, or in-process from the data directory after the same
// signature check) and save them.

export const pdfFlags = {
  page: Flags.string({ description: 'page id: print this page and its subpages (with --only, this page alone)' }),
  only: Flags.boolean({ description: 'print only the page given by --page', dependsOn: ['page'] }),
  output: Flags.string({ char: 'o', description: 'where to save the PDF ("-" for stdout; default: the name the server gives it)' }),
};

export async function savePdf(
  transport: Transport,
  operationId: string,
  path: Record<string, string>,
  flags: { page?: string; only?: boolean; output?: string },
) {
  const query: Record<string, unknown> = {};
  if (flags.page !== undefined) query.page = flags.page;
  if (flags.only) query.only = true;
  const { url } = (await transport.call(operationId, { path, query })).body as { url: string };
  const bytes = await transport.download(url);
  // The server's name is made a safe file name here: another server may send `../../x.pdf`.
  const given = new URL(url).searchParams.get('name') || 'export.pdf';
  const out = flags.output ?? safeSegment(given);
  if (!flags.output && out !== given)
    process.stderr.write(`Warning: the server's name for the PDF, ${JSON.stringify(given)}, is not a safe file name here; saved as ${out}\n`);
  if (out === '-') process.stdout.write(bytes);
  else writeFileSync(out, bytes);
  return { url, path: out, size: bytes.length };
}
