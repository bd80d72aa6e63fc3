import { DocsError } from '../../src/kernel/errors.js';

// Destructive commands ask on a terminal; elsewhere (CI, pipes) nobody can answer, so they refuse
// unless --yes says the command line is the confirmation (gh's rule). A "no" is a user's choice:
// exit 2 "cancelled" (not 5, the conflict code).

export const interactive = () => Boolean(process.stdin.isTTY && process.stdout.isTTY);

/** Resolves when confirmed (by --yes or a "yes" on a terminal); throws exit 2 otherwise. */
export async function confirmDestructive(question: string, yes: boolean | undefined): Promise<void> {
  if (yes) return;
  if (!interactive()) {
    throw new DocsError('invalid', `${question.replace(/\?.*$/, '')}: not confirmed; pass --yes to confirm (no terminal to ask on)`);
  }
  const { confirm } = await import('@inquirer/prompts');
  if (!(await confirm({ message: question, default: false }))) throw new DocsError('invalid', 'cancelled');
}
