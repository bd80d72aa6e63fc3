import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { operationSpec } from '../src/contract/spec.js';
import { packageRoot } from '../src/kernel/root.js';
import { OPERATIONS } from '../src/operations.js';

// The public surface, snapshotted: a change to a command, a flag or a served operation shows up
// in review as a change to these files.
describe('public surface', () => {
  it('commands and their flags', async () => {
    const manifest = JSON.parse(readFileSync(join(packageRoot(), 'oclif.manifest.json'), 'utf8'));
    const lines = Object.values<any>(manifest.commands)
      .map((c) =>
        `${c.id.replace(/:/g, ' ')} ${Object.keys(c.args ?? {})
          .map((a) => `<${a}>`)
          .join(' ')} ${[...Object.keys(c.flags), ...(c.globalFlags ?? [])]
          .sort()
          .map((f) => `--${f}`)
          .join(' ')}`
          .replace(/\s+/g, ' ')
          .trim(),
      )
      .sort();
    await expect(lines.join('\n') + '\n').toMatchFileSnapshot('__snapshots__/commands.txt');
  });

  it('operations served', async () => {
    const lines = OPERATIONS.map((o) => {
      const spec = operationSpec(o.operationId);
      return `${spec.method} /v1${spec.path} ${o.operationId}`;
    });
    await expect(lines.join('\n') + '\n').toMatchFileSnapshot('__snapshots__/operations.txt');
  });
});
