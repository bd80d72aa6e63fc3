import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { docs, onTerminal } from '../helpers/cli.js';
import { tempDir } from '../helpers/server.js';

// Issue 20 item 10, at a real terminal: `script` gives the command a pseudo-terminal, the test
// types the keys (arrow down, Enter) once each prompt shows. Pickers are asked in order and
// each depends on the answer before it (the change requests of the space just chosen).
const hasScript = spawnSync('script', ['--version']).status === 0;

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
