import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { png, readPdf } from '../helpers/pdf.js';
import { tempDir, startServer } from '../helpers/server.js';

// docs spaces pdf and docs cr pdf on both transports: in-process the bytes are read from the data
// directory (after the signature check), against a server they are fetched from its /pdf/ URL.

function folder(): string {
  const dir = tempDir('docs-pdf-src-');
  mkdirSync(join(dir, 'images'));
  writeFileSync(join(dir, 'intro.md'), '# Introduction\n\nWelcome to **Acme**.\n\n![logo](images/logo.png)\n');
  writeFileSync(join(dir, 'setup.md'), '# Setup\n\n```sh\nacme init\n```\n');
  writeFileSync(join(dir, 'images', 'logo.png'), png(20, 10));
  return dir;
}

async function scenario(env: Record<string, string>) {
  const run = async (...args: string[]) => {
    const r = await docs(args, env);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  const space = (await run('spaces', 'create', '--title', 'Handbook', '--json')).json.id as string;
  await run('content', 'push', folder(), '--space', space, '--merge');
  const out = tempDir('docs-pdf-out-');

  const all = join(out, 'all.pdf');
  expect((await run('spaces', 'pdf', space, '-o', all)).stdout).toMatch(new RegExp(`^Saved space ${space} as PDF \\(\\d+ bytes\\) to ${all}\\.\\n$`));
  const bytes = readFileSync(all);
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  const pdf = await readPdf(bytes);
  expect(pdf.pages.map((p) => p[0])).toEqual(['Introduction', 'Setup']);
  expect(pdf.images).toBe(1);

  const setup = (await run('pages', 'list', space, '--json')).json.pages.find((p: any) => p.title === 'Setup').id;
  const saved = (await run('cr', 'pdf', space, '1', '--page', setup, '--only', '-o', join(out, 'cr.pdf'), '--json')).json;
  expect(saved).toMatchObject({ path: join(out, 'cr.pdf'), size: readFileSync(join(out, 'cr.pdf')).length });
  expect(saved.url).toMatch(/\/pdf\/[A-Za-z0-9]+\/[a-f0-9]{64}\.pdf\?/);
  const one = await readPdf(readFileSync(join(out, 'cr.pdf')));
  expect(one.pages.map((p) => p[0])).toEqual(['Setup']);

  const missing = await docs(['cr', 'pdf', space, '99', '-o', join(out, 'x.pdf')], env);
  expect(missing.status).toBe(3);
  expect(missing.stderr).toBe(`Error: change request 99 not found in space ${space}\n`);
  expect((await docs(['spaces', 'pdf', space, '--only', '-o', join(out, 'y.pdf')], env)).status).toBe(2); // --only needs --page
}

describe('docs spaces pdf, docs cr pdf', () => {
  it('save a PDF in-process', { timeout: 60_000 }, async () => {
    await scenario({ DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_pdf' });
  });

  it('save a PDF against a server (--api-url, --token)', { timeout: 60_000 }, async () => {
    const s = await startServer({ dataDir: tempDir(), token: 'gb_api_e2e_pdf_remote' });
    try {
      await scenario({ DOCS_API_URL: s.url, DOCS_TOKEN: 'gb_api_e2e_pdf_remote' });
    } finally {
      await s.stop();
    }
  });
});
