import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { tempDir } from '../helpers/server.js';

// A merge conflict between a pushed folder's change request and its space (issue 20, item 7):
// `docs cr merge` and `docs content push --merge` print the CLI steps that resolve it (not an API
// operation), and following those steps, as printed, ends in a clean merge. In-process only: the
// steps are the same commands whatever the transport (content-loop-cli.test.ts runs both).

function runner(env: Record<string, string>) {
  const run = async (...args: string[]) => {
    const r = await docs(args, env);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  return { run, raw: async (...args: string[]) => await docs(args, env) };
}

describe('a merge conflict', () => {
  it('prints the CLI steps that resolve it, and following them merges', { timeout: 60_000 }, async () => {
    const { run, raw } = runner({ DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_loop_conflict' });
    const space = (await run('spaces', 'create', '--title', 'Clash', '--json')).json.id as string;
    const mine = tempDir('docs-loop-mine-');
    writeFileSync(join(mine, 'guide.md'), '# Guide\n\nLine one.\n\nLine two.\n');
    await run('content', 'push', mine, '--space', space, '--merge');
    // My edit waits in change request #2 while another folder's edit of the same line is merged.
    writeFileSync(join(mine, 'guide.md'), '# Guide\n\nLine one by me.\n\nLine two.\n');
    expect((await run('content', 'push', mine, '--space', space, '--json')).json).toMatchObject({ number: 2, target: 'new' });
    const theirs = tempDir('docs-loop-theirs-');
    writeFileSync(join(theirs, 'guide.md'), '# Guide\n\nLine one by them.\n\nLine two.\n');
    await run('content', 'push', theirs, '--space', space, '--merge');

    const merge = await raw('cr', 'merge', space, '2');
    expect(merge.status).toBe(5);
    expect(merge.stderr).not.toContain('revert_page');
    // cr merge: the one-command way (docs cr resolve, first-hour-cli.test.ts follows it).
    expect(merge.stderr).toContain(`docs cr resolve ${space} 2 ./cr-2`);
    expect(merge.stderr).toContain(`docs content push ./cr-2 --space ${space} --change-request 2 --merge`);

    const push = await raw('content', 'push', mine, '--space', space, '--merge');
    expect(push.status).toBe(5);
    // content push points at the same one-command way, into a folder of its own.
    expect(push.stderr).toContain(`docs cr resolve ${space} 2 ./cr-2`);
    const cr2 = join(tempDir('docs-loop-cr-'), 'cr-2');
    expect((await raw('cr', 'resolve', space, '2', cr2)).status).toBe(0);
    const marked = readFileSync(join(cr2, 'guide.md'), 'utf8');
    expect(marked).toMatch(/^<<<<<<< /m);
    // Pushed as it is, the markers would be published: refused, naming the file and line, nothing sent.
    const unresolved = await raw('content', 'push', cr2, '--space', space, '--change-request', '2', '--merge');
    expect(unresolved.status).toBe(2);
    expect(unresolved.stderr).toMatch(/guide\.md:\d+: an unresolved conflict .*nothing was sent/);
    expect((await run('cr', 'get', space, '2', '--json')).json.status).toBe('open');
    // One edit, one push.
    writeFileSync(join(cr2, 'guide.md'), '# Guide\n\nLine one by them, and me.\n\nLine two.\n');
    expect((await run('content', 'push', cr2, '--space', space, '--change-request', '2', '--merge', '--json')).json).toMatchObject({ number: 2, merged: true });
    expect((await run('pages', 'get', space, '--path', 'guide')).stdout).toContain('Line one by them, and me.');
  });
});
