// Color rules of the whole CLI: only on a terminal, never with NO_COLOR set (any value, even
// empty: bin/run.js turns an empty one into "1" so that oclif's own colors, through ansis, obey
// it too). A few SGR codes by hand: nothing to load for four colors.

/** Whether what goes to `stream` may be colored. */
export function colorEnabled(stream: { isTTY?: boolean } = process.stdout): boolean {
  return Boolean(stream.isTTY) && process.env.NO_COLOR === undefined;
}

export interface Paint {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  cyan(s: string): string;
}

const sgr = (on: boolean, open: number, close: number) => (on ? (s: string) => (s ? `\u001b[${open}m${s}\u001b[${close}m` : s) : (s: string) => s);

/** Styles that color when `on`, else return the text as it is. */
export function paint(on: boolean): Paint {
  return { bold: sgr(on, 1, 22), dim: sgr(on, 2, 22), red: sgr(on, 31, 39), green: sgr(on, 32, 39), cyan: sgr(on, 36, 39) };
}

/** An ora spinner on stderr, only on a terminal; uncolored with NO_COLOR (ora's chalk ignores it). */
export async function startSpinner(text?: string): Promise<{ stop(): unknown; text: string } | undefined> {
  if (!process.stderr.isTTY) return undefined;
  const { default: ora } = await import('ora');
  return ora({ text, stream: process.stderr, color: colorEnabled(process.stderr) ? 'cyan' : false }).start();
}
