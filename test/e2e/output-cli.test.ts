import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docs, hasScript, inTerminal } from '../helpers/cli.js';
import { tempDir } from '../helpers/server.js';

// Human output as a person and a script see it (docs/manual/cli.md#in-scripts-and-at-the-terminal): the
// same commands through a pipe (docs(): no TTY) and in a pseudo-terminal (util-linux `script`,
// skipped without it), with and without NO_COLOR. The rendering rules themselves:
// test/commands/render.test.ts.
const ESC = '\u001b[';

describe('human output: pipes and terminals', () => {
  it('lists and objects: TSV through a pipe; fitted tables and summaries on a terminal; colors obey NO_COLOR', async () => {
    const env = { DOCS_DATA: tempDir('docs-output-') };
    const run = async (...args: string[]) => {
      const r = await docs(args, env);
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      return r;
    };
    const long = 'A long space title that a narrow terminal cuts';
    const space = (await run('spaces', 'create', '--title', long, '--json')).json;

    // Through a pipe: tab-separated, no header, nothing cut; one object as key<TAB>value.
    const piped = await run('spaces', 'list');
    expect(piped.stdout).toBe(`${space.id}\t${long}\t\tprivate\t${space.updatedAt}\n`);
    const got = (await run('spaces', 'get', space.id)).stdout;
    expect(got).toContain(`title\t${long}\n`);
    expect(got).toContain('permissions.edit\ttrue\n');
    expect(got).not.toMatch(/[{"]/);

    // sites customize without --json: what was set, not the whole customization.
    const site = (await run('sites', 'create', '--title', 'Site', '--spaces', space.id, '--json')).json;
    const custom = (await run('sites', 'customize', site.id, '--set', 'styling.primaryColor.light=#1f6feb', '--set', 'styling.theme=bold')).stdout;
    expect(custom).toBe(
      `Updated the customization of site ${site.id}:\n  styling.primaryColor.light  #1f6feb\n  styling.theme               bold\nAll of it: docs sites customization ${site.id} (or add --json).\n`,
    );

    // A change request to diff: the space pushed, then one line changed.
    const src = join(tempDir('docs-output-src-'), 'src');
    mkdirSync(src);
    writeFileSync(join(src, 'guide.md'), '# Guide\n\nLine one.\n');
    await run('content', 'push', src, '--space', space.id, '--merge');
    writeFileSync(join(src, 'guide.md'), '# Guide\n\nLine one, changed.\n');
    const cr = (await run('content', 'push', src, '--space', space.id, '--json')).json.number;
    expect((await run('cr', 'diff', space.id, String(cr))).stdout).not.toContain(ESC);

    if (!hasScript) return console.warn('skipped the terminal half: no util-linux `script` here');
    const out = await inTerminal(
      [
        '$D spaces list',
        'echo :::',
        `$D spaces get ${space.id}`,
        'echo :::',
        `$D cr diff ${space.id} ${cr}`,
        'echo :::',
        'NO_COLOR= $D spaces list',
        'echo :::',
        'NO_COLOR= $D spaces list --help',
      ],
      env,
    );
    const [table, summary, diff, plainTable, plainHelp] = out.split(':::\n');
    const visible = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');
    // The table: a bold header in words, the id whole, the title cut to fit 72 columns.
    expect(table).toContain(`${ESC}1mID${ESC}22m`);
    expect(visible(table!).split('\n')[0]).toMatch(/^ID {20}Title +Parent {2}Visibility {2}Updated$/);
    const row = visible(table!).split('\n')[1]!;
    expect(row).toMatch(new RegExp(`^${space.id}  A long space[^…]*… +private +(just now|\\d+ min\\. ago)$`));
    for (const l of visible(table!).trimEnd().split('\n')) expect([...l].length).toBeLessThanOrEqual(72);
    expect(table).not.toMatch(/[│┌─]/);
    // The summary: labels in words, permissions as words, URLs indented, the --json hint.
    expect(summary).toMatch(/^Title +A long space title that a narrow terminal cuts$/m);
    expect(summary).toMatch(/^Permissions +view, /m);
    expect(summary).toMatch(/^URLs\n {2}Location +http/m);
    expect(summary).toContain('(--json prints every field)');
    expect(summary).not.toMatch(/[{"]/);
    // The diff in color; NO_COLOR (even empty) takes every color away, oclif's help's too.
    expect(diff).toContain(`${ESC}31m-Line one.${ESC}39m`);
    expect(diff).toContain(`${ESC}32m+Line one, changed.${ESC}39m`);
    expect(plainTable).not.toContain(ESC);
    expect(plainTable).toMatch(/^ID {20}Title/);
    expect(plainHelp).toContain('USAGE');
    expect(plainHelp).not.toContain(ESC);
  }, 60_000);
});
