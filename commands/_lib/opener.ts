import { spawn } from 'node:child_process';

/** Opens a URL with the platform's opener (open, xdg-open, start), detached; failures are ignored (the URL is printed anyway). */
export function openUrl(url: string): void {
  const [cmd, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(cmd, args as string[], { detached: true, stdio: 'ignore' });
    child.on('error', () => {});
    child.unref();
  } catch {
    /* no opener on this machine */
  }
}
