import { DocsError } from '../../src/kernel/errors.js';

// `--jq EXPR`: the --json output through a real jq (jq 1.8 compiled to WebAssembly, jq-wasm 3),
// as gh's --jq: strings print raw. Loaded only when the flag is given: no cost otherwise.

/** The --jq expression of a command line, if any (before a `--`). */
export function jqExpression(argv: string[]): string | undefined {
  const end = argv.indexOf('--');
  const args = end === -1 ? argv : argv.slice(0, end);
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--jq') return args[i + 1];
    if (args[i]!.startsWith('--jq=')) return args[i]!.slice(5);
  }
  return undefined;
}

/** The output of `jq -r EXPR` on the value; a bad expression is exit 2 naming the flag. */
export async function runJq(value: unknown, expression: string): Promise<string> {
  // jq's WebAssembly compiled by the baseline compiler only: V8 otherwise starts optimizing the
  // whole module in the background and the process waits for that before it exits, for a filter
  // that runs once. Set before the module is compiled, it applies to jq only.
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--liftoff-only');
  // V8 would reject a code cache made under other flags: bin/cli-bundle.cjs writes none for this run.
  (globalThis as Record<symbol, unknown>)[Symbol.for('docs.codeCache.skip')] = true;
  const { raw } = await import('jq-wasm');
  let result: { stdout: string; stderr: string; exitCode: number };
  try {
    result = await raw(value === undefined ? 'null' : JSON.stringify(value), expression, ['-r']);
  } catch (err) {
    result = { stdout: '', stderr: String((err as Error).message ?? err), exitCode: 1 };
  }
  if (result.exitCode !== 0) {
    const message = (result.stderr || `jq exited ${result.exitCode}`).replace(/\s+/g, ' ').trim();
    throw new DocsError('invalid', `--jq: ${message}`);
  }
  return result.stdout;
}
