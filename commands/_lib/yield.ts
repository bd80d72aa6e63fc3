import { setImmediate as immediate } from 'node:timers/promises';

// Long loops of the CLI (reading a folder, comparing it with a space, writing a pull) give the
// event loop back every `budgetMs`: the spinner keeps turning, Ctrl-C and a server's keep-alive
// timers are answered at once (issue 30: a push held the loop 4-10 s, its spinner froze, Ctrl-C
// took seconds). `await tick()` costs nothing until the budget is spent.

export const LOOP_BUDGET_MS = 20;

export function yielder(budgetMs = LOOP_BUDGET_MS): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < budgetMs) return undefined;
    return immediate().then(() => {
      since = performance.now();
    });
  };
}
