import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// '@oclif/core' itself loads every part of oclif (help, ux, themes, ...) when a command starts:
// about a quarter of the start of an in-process command. Commands import the subpaths they use
// (@oclif/core/flags, /args, /command, /errors); bin/run.js imports @oclif/core/execute.
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') || e.name.endsWith('.js') ? [join(dir, e.name)] : [],
  );

describe('oclif imports', () => {
  it("no command imports '@oclif/core' itself (only its subpaths)", () => {
    const root = join(__dirname, '..', '..');
    const offenders = [...files(join(root, 'commands')), join(root, 'bin', 'run.js'), join(root, 'bin', 'run.cjs')].filter((f) =>
      /from '@oclif\/core'|import\('@oclif\/core'\)/.test(readFileSync(f, 'utf8')),
    );
    expect(offenders, "import from '@oclif/core/flags' (or /args, /command, /errors) instead").toEqual([]);
  });
});
