import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { tempDir, startServer } from '../helpers/server.js';

// docs content check: a folder (every kind of problem, one case each), the output formats, the
// server's check of a space and of a change request (in-process and over HTTP), and push --check.

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000003000000020806000000', 'hex');

function write(dir: string, files: Record<string, string | Buffer>) {
  for (const [name, body] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), body);
  }
}

/** A clean folder: SUMMARY.md, three pages linking to each other (anchors too), an image, a PDF. */
function clean(): string {
  const dir = tempDir('docs-check-');
  write(dir, {
    'SUMMARY.md': '# Table of contents\n\n* [Introduction](intro.md)\n* [Guide](guide/README.md)\n  * [Setup](guide/setup.md)\n',
    'intro.md':
      '# Introduction\n\nSee [setup](guide/setup.md#setup-install), [the guide](guide/README.md) and ![logo](images/logo.png).\n\n## Why\n\nBack [up](#introduction), [GitHub style](guide/setup.md#setup--install) [site](https://example.com/x).\n',
    'guide/README.md': '# Guide\n\nGet [the sheet](../files/sheet.pdf).\n',
    'guide/setup.md': '# Setup\n\n## Setup & install\n\nBack to [intro](../intro.md#why).\n',
    'images/logo.png': PNG,
    'files/sheet.pdf': '%PDF-1.4\n',
  });
  return dir;
}

const env = () => ({ DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_check' });

describe('docs content check DIR', () => {
  it('finds nothing in a clean folder: exit 0', async () => {
    const dir = clean();
    const r = await docs(['content', 'check', dir]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`No problems in ${dir} (3 pages, 2 files checked).\n`);
    expect(r.status).toBe(0);
  });

  // Each case: the clean folder, one defect, exactly its line(s) (file:line: message), exit 1.
  const cases: [string, (dir: string) => void, (dir: string) => string][] = [
    [
      'a link to a page that is not there',
      (d) => write(d, { 'guide/setup.md': '# Setup\n\n## Setup & install\n\nSee [gone](./gone.md).\n' }),
      (d) => `${d}/guide/setup.md:5: broken link ./gone.md: no page guide/gone.md`,
    ],
    [
      'an anchor of another page that is not there',
      (d) => write(d, { 'guide/setup.md': '# Setup\n\n## Setup & install\n\nBack to [intro](../intro.md#how).\n' }),
      (d) => `${d}/guide/setup.md:5: broken anchor ../intro.md#how: intro.md has no heading #how`,
    ],
    [
      'an anchor of the page itself that is not there',
      (d) => write(d, { 'guide/README.md': '# Guide\n\n[Below](#later)\n' }),
      (d) => `${d}/guide/README.md:3: broken anchor #later: no such heading in this page`,
    ],
    ['an image that is not there', (d) => rmSync(join(d, 'images/logo.png')), (d) => `${d}/intro.md:3: missing image images/logo.png: no file images/logo.png`],
    [
      'a file that is not there',
      (d) => rmSync(join(d, 'files/sheet.pdf')),
      (d) => `${d}/guide/README.md:3: missing file ../files/sheet.pdf: no file files/sheet.pdf`,
    ],
    [
      'a link leading outside the folder',
      (d) => write(d, { 'guide/README.md': '# Guide\n\n[secrets](../../../etc/passwd)\n' }),
      (d) => `${d}/guide/README.md:3: link ../../../etc/passwd leads outside ${d}: push reads only files inside the folder`,
    ],
    [
      'a link that is not a valid URL',
      (d) => write(d, { 'guide/README.md': '# Guide\n\n[bad](100%.md)\n' }),
      (d) => `${d}/guide/README.md:3: 100%.md is not a valid link (bad %-escape)`,
    ],
    [
      'a link to a folder (no page once pushed)',
      (d) => write(d, { 'intro.md': '# Introduction\n\n## Why\n\nSee [the guide](guide/).\n' }),
      (d) => `${d}/intro.md:5: broken link guide/: a folder; link its page, guide/README.md`,
    ],
    [
      'a page SUMMARY.md does not list',
      (d) => write(d, { 'extra.md': '# Extra\n' }),
      (d) => `${d}/extra.md:1: not listed in SUMMARY.md: push skips it (list it, or remove it)`,
    ],
    [
      'a link to a page SUMMARY.md does not list',
      (d) => write(d, { 'extra.md': '# Extra\n', 'guide/README.md': '# Guide\n\nGet [the sheet](../files/sheet.pdf).\n\nSee [extra](../extra.md).\n' }),
      (d) =>
        `${d}/extra.md:1: not listed in SUMMARY.md: push skips it (list it, or remove it)\n${d}/guide/README.md:5: broken link ../extra.md: extra.md is not in SUMMARY.md, so push skips it`,
    ],
    [
      'a SUMMARY.md entry without its file',
      (d) =>
        write(d, {
          'SUMMARY.md': '# Table of contents\n\n* [Introduction](intro.md)\n* [Guide](guide/README.md)\n  * [Setup](guide/setup.md)\n* [FAQ](faq.md)\n',
        }),
      (d) => `${d}/SUMMARY.md:6: faq.md: no such file (entry "FAQ")`,
    ],
    [
      'a file SUMMARY.md lists twice',
      (d) =>
        write(d, {
          'SUMMARY.md': '# Table of contents\n\n* [Introduction](intro.md)\n* [Guide](guide/README.md)\n  * [Setup](guide/setup.md)\n* [Again](./intro.md)\n',
        }),
      (d) => `${d}/SUMMARY.md:6: intro.md is already listed on line 3; list each file once`,
    ],
    [
      'a SUMMARY.md that is not a list',
      (d) => (write(d, { 'SUMMARY.md': '# Table of contents\n\nSee intro.md.\n' }), rmSync(join(d, 'guide'), { recursive: true })),
      (d) =>
        `${d}/intro.md:1: not listed in SUMMARY.md: push skips it (list it, or remove it)\n${d}/SUMMARY.md:1: not a list of links to pages (* [Title](page.md), nested for subpages): push would find no page in it`,
    ],
    [
      'two files of one page path (no SUMMARY.md)',
      (d) => (rmSync(join(d, 'SUMMARY.md')), write(d, { 'guide.md': '# Guide again\n' })),
      (d) => `${d}/guide/README.md:1: page path guide is also guide.md; rename one`,
    ],
    [
      'two page paths that differ only in case (no SUMMARY.md)',
      (d) => (rmSync(join(d, 'SUMMARY.md')), write(d, { 'Intro.md': '# Intro again\n' })),
      (d) => `${d}/intro.md:1: page path intro is also Intro.md (they differ only in case); rename one`,
    ],
  ];
  for (const [name, spoil, line] of cases) {
    it(`reports ${name}: one line, exit 1`, async () => {
      const dir = clean();
      spoil(dir);
      const r = await docs(['content', 'check', dir]);
      expect(r.stdout).toBe(`${line(dir)}\n`);
      const n = line(dir).split('\n').length;
      expect(r.stderr).toBe(`Error: ${n} problem${n === 1 ? '' : 's'} in ${dir}\n`);
      expect(r.status).toBe(1);
    });
  }

  it('prints --json, --format github and --format junit', async () => {
    const dir = clean();
    rmSync(join(dir, 'images/logo.png'));
    write(dir, { 'guide/README.md': '# Guide\n\nSee [a, b](<x%25 y.md>).\n\nGet [the sheet](../files/sheet.pdf).\n' });
    const json = await docs(['content', 'check', dir, '--json']);
    expect(json.status).toBe(1);
    expect(json.json).toEqual({
      target: { dir },
      counts: { pages: 3, files: 1 },
      problems: [
        { file: `${dir}/guide/README.md`, line: 3, kind: 'broken-link', message: 'broken link x%25 y.md: no page guide/x% y.md' },
        { file: `${dir}/intro.md`, line: 3, kind: 'missing-image', message: 'missing image images/logo.png: no file images/logo.png' },
      ],
    });
    const gh = await docs(['content', 'check', dir, '--format', 'github']);
    expect(gh.status).toBe(1);
    // Data escapes % (and CR, LF); properties also : and ,.
    expect(gh.stdout).toBe(
      `::error file=${dir}/guide/README.md,line=3,title=docs content check (broken-link)::broken link x%2525 y.md: no page guide/x%25 y.md\n` +
        `::error file=${dir}/intro.md,line=3,title=docs content check (missing-image)::missing image images/logo.png: no file images/logo.png\n`,
    );
    const junit = await docs(['content', 'check', dir, '--format', 'junit']);
    expect(junit.status).toBe(1);
    expect(junit.stdout).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="docs content check" tests="2" failures="2">',
        `  <testsuite name="docs content check ${dir}" tests="2" failures="2">`,
        `    <testcase classname="${dir}/guide/README.md" name="${dir}/guide/README.md:3 broken-link" file="${dir}/guide/README.md" line="3">`,
        `      <failure type="broken-link" message="broken link x%25 y.md: no page guide/x% y.md">${dir}/guide/README.md:3: broken link x%25 y.md: no page guide/x% y.md</failure>`,
        '    </testcase>',
        `    <testcase classname="${dir}/intro.md" name="${dir}/intro.md:3 missing-image" file="${dir}/intro.md" line="3">`,
        '      <failure type="missing-image" message="missing image images/logo.png: no file images/logo.png">' +
          `${dir}/intro.md:3: missing image images/logo.png: no file images/logo.png</failure>`,
        '    </testcase>',
        '  </testsuite>',
        '</testsuites>',
        '',
      ].join('\n'),
    );
    // A clean folder: one passing test case; the verdict on stderr, stdout stays XML.
    const ok = await docs(['content', 'check', clean(), '--format', 'junit']);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('tests="1" failures="0"');
    expect(ok.stderr).toMatch(/^No problems in /);
    expect((await docs(['content', 'check', clean(), '--format', 'github'])).stdout).toBe('');
  });

  it('refuses bad input: exit 2', async () => {
    expect((await docs(['content', 'check'])).stderr).toBe(
      'Error: what to check: a folder (docs content check ./docs) or a space (--space S, with --change-request N for a change request)\n',
    );
    expect((await docs(['content', 'check'])).status).toBe(2);
    const both = await docs(['content', 'check', clean(), '--space', 'x']);
    expect([both.status, both.stderr]).toEqual([2, 'Error: give a folder (DIR) or --space, not both\n']);
    expect(await docs(['content', 'check', '--change-request', '4'])).toMatchObject({ status: 2 });
    const none = join(tempDir(), 'nope');
    expect(await docs(['content', 'check', none])).toMatchObject({ status: 2, stderr: `Error: DIR: ${none} is not a folder\n` });
    expect((await docs(['content', 'check', clean(), '--format', 'xml'])).status).toBe(2);
    // A symbolic link out of the folder is refused as push refuses it: nothing outside is read.
    const out = clean();
    symlinkSync('/etc/passwd', join(out, 'passwd.md'));
    const r = await docs(['content', 'check', out]);
    expect([r.status, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toBe(`Error: passwd.md: a symbolic link to /etc/passwd, outside ${out}; push reads only files inside the folder; nothing was sent\n`);
  });
});

/** Pushes a folder with a broken link (push sends it: only check refuses), then checks the space and a change request. */
async function remoteScenario(e: Record<string, string>) {
  const run = async (...args: string[]) => {
    const r = await docs(args, e);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  const space = (await run('spaces', 'create', '--title', 'Checked', '--json')).json.id as string;
  const dir = clean();
  await run('content', 'push', dir, '--space', space, '--merge');
  const ok = await docs(['content', 'check', '--space', space], e);
  expect(ok.stdout).toMatch(new RegExp(`^No problems in space ${space} \\(\\d+ links checked\\)\\.\\n$`));
  expect(ok.status).toBe(0);

  write(dir, { 'guide/setup.md': '# Setup\n\nSee [gone](./gone.md).\n' });
  await run('content', 'push', dir, '--space', space); // change request #2, open
  const cr = await docs(['content', 'check', '--space', space, '--change-request', '2'], e);
  expect(cr.stdout).toBe('guide/setup: broken link ./gone.md\n');
  expect(cr.stderr).toBe(`Error: 1 problem in change request #2 of space ${space}\n`);
  expect(cr.status).toBe(1);
  // The space itself is still clean until the change request is merged.
  expect((await docs(['content', 'check', '--space', space], e)).status).toBe(0);
  await run('cr', 'merge', space, '2');
  const after = await docs(['content', 'check', '--space', space, '--format', 'github'], e);
  expect(after.stdout).toBe('::error file=guide/setup,title=docs content check (broken-link)::broken link ./gone.md\n');
  expect(after.status).toBe(1);
}

describe('docs content check --space', () => {
  it('asks the server in-process', { timeout: 60_000 }, async () => {
    await remoteScenario(env());
  });

  it('asks a server over HTTP (--api-url, --token)', { timeout: 60_000 }, async () => {
    const s = await startServer({ dataDir: tempDir(), token: 'gb_api_e2e_check_remote' });
    try {
      await remoteScenario({ DOCS_API_URL: s.url, DOCS_TOKEN: 'gb_api_e2e_check_remote' });
    } finally {
      await s.stop();
    }
  });
});

describe('docs content push --check', () => {
  it('refuses a folder with problems and sends nothing; a clean one is pushed', { timeout: 60_000 }, async () => {
    const e = env();
    const space = (await docs(['spaces', 'create', '--title', 'Gate', '--json'], e)).json.id as string;
    const dir = clean();
    rmSync(join(dir, 'images/logo.png'));
    const r = await docs(['content', 'push', dir, '--space', space, '--check', '--merge'], e);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`${dir}/intro.md:3: missing image images/logo.png: no file images/logo.png\nError: --check: 1 problem in ${dir}; nothing was sent\n`);
    expect(r.status).toBe(1);
    // Nothing sent: no change request, no page.
    expect((await docs(['api', 'GET', `/spaces/${space}/change-requests`], e)).json.items).toEqual([]);
    expect((await docs(['pages', 'list', space, '--json'], e)).json.pages).toEqual([]);

    write(dir, { 'images/logo.png': PNG });
    const ok = await docs(['content', 'push', dir, '--space', space, '--check', '--merge', '--json'], e);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.json).toMatchObject({ number: 1, merged: true, added: 3 });
  });
});
