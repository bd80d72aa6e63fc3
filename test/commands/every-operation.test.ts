import { describe, expect, it } from 'vitest';
import { OPERATION_IDS } from '../../src/operations.js';
import { sourceConfig } from '../helpers/in-process-cli.js';

// Every operation the server serves has a command that performs it (issue "parity, part 1",
// item 5; docs/manual/tooling.md#every-operation-has-a-command): the commands declare what they
// exist to do (`static operations`; generated commands declare their one operation), and this
// walks the registry against those declarations.
describe('every operation has a command', () => {
  it('each served operation is performed by some command, and each declared operation is served', async () => {
    const config = await sourceConfig();
    const byOperation = new Map<string, string[]>();
    const unknown: string[] = [];
    const served = new Set<string>(OPERATION_IDS);
    for (const command of config.commands) {
      const cls = (await command.load()) as { operations?: readonly string[] };
      for (const op of cls.operations ?? []) {
        if (!served.has(op)) unknown.push(`${command.id}: ${op}`);
        byOperation.set(op, [...(byOperation.get(op) ?? []), command.id]);
      }
    }
    expect(unknown, 'commands declaring operations this server does not serve').toEqual([]);
    expect(
      OPERATION_IDS.filter((id) => !byOperation.has(id)),
      'served operations without a command',
    ).toEqual([]);
  });
});
