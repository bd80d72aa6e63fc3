import { spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, docs } from '../helpers/cli.js';
import { tempDir } from '../helpers/server.js';

// Issue 20 item 10, at a real terminal: `script` gives the command a pseudo-terminal, the test
// types the keys (arrow down, Enter) once each prompt shows. Pickers are asked in order and
// each depends on the answer before it (the change requests of the space just chosen).
const hasScript = spawnSync('script', ['--version']).status === 0;

/** Runs `docs ARGS` on a pseudo-terminal; at each prompt matching `when`, types `keys`. */
function onTerminal(args: string[], env: Record<string, string>, steps: [RegExp, string][]): Promise<{ status: number | null; out: string }> {
  const command = [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], { env: { ...process.env, DOCS_API_URL: '', DOCS_TOKEN: '', ...env, TERM: 'xterm', COLUMNS: '120' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let step = 0;
  const onData = (d: Buffer) => {
    out += d.toString();
    // The prompt's text since the last answer (the screen redraws; ANSI codes removed).
    while (step < steps.length && steps[step]![0].test(out.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, ''))) child.stdin.write(steps[step++]![1]);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const timer = setTimeout(() => child.kill(), 15_000);
  return new Promise((resolve) => child.on('exit', (status) => (clearTimeout(timer), resolve({ status, out }))));
}

describe.skipIf(!hasScript)('pickers on a terminal', () => {
  const data = tempDir('docs-picker-');
  const env = { DOCS_DATA: data };
  afterAll(() => rmSync(data, { recursive: true, force: true }));

  it('asks for the space, then a change request of that space, in words; a script gets exit 2 instead', async () => {
    expect((await docs(['spaces', 'create', '--title', 'Alpha', '--json'], env)).status).toBe(0);
    const beta = (await docs(['spaces', 'create', '--title', 'Beta', '--json'], env)).json.id;
    const cr = (await docs(['cr', 'create', beta, '--subject', 'Fix typo', '--json'], env)).json;
    expect(cr.id).toBeTruthy();

    // A hand-written command (cr changes): Space (second: Beta), then Change request (its only one).
    const DOWN = '\u001b[B';
    const r = await onTerminal(['cr', 'changes', '--json'], env, [
      [/Space:[\s\S]*Beta/, DOWN],
      [/Space:[\s\S]*Beta[\s\S]*❯ Beta/, '\r'],
      [/Change request:[\s\S]*#1 Fix typo \[open\]/, '\r'],
    ]);
    expect(r.out).toMatch(/Space:/);
    expect(r.out).toMatch(/Change request:/);
    expect(r.out).not.toMatch(/spaceId|changeRequestId/);
    expect(r.status, r.out).toBe(0);
    expect(r.out).toContain('"changes"');

    // An operation command (cr get) through the same registry.
    const g = await onTerminal(['cr', 'get', beta, '--json'], env, [[/Change request:[\s\S]*Fix typo/, '\r']]);
    expect(g.status, g.out).toBe(0);
    expect(g.out).toContain(`"id": "${cr.id}"`);

    // No terminal: nobody to ask, the arguments are named (exit 2).
    const script = await docs(['cr', 'changes'], env);
    expect(script.status).toBe(2);
    expect(script.stderr).toMatch(/SPACE_ID, CHANGE_REQUEST_ID/);
  }, 40_000);
});
