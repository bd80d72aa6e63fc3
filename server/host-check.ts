import { isIP } from 'node:net';
import { DocsError } from '../src/kernel/errors.js';

// DNS rebinding: a page on http://evil.example:PORT whose name is made to resolve to 127.0.0.1
// reaches `docs serve` as a same-origin request, but its Host header still names evil.example.
// So only the names this server was asked to answer for are accepted: 127.0.0.1, localhost,
// [::1], the --host value and each --allowed-host. The port is not compared (a port forward or a
// proxy may change it; rebinding is about the name). Listening on a wildcard address (0.0.0.0,
// ::), any IP literal is accepted too: an address cannot be rebound, only a name can. A request
// without Host (HTTP/1.0; Node refuses HTTP/1.1 without one) comes from no browser: accepted.

/** The host name of a Host header value, lower-case, without port, brackets or a trailing dot. */
export function hostName(value: string): string | undefined {
  const v = value.trim().toLowerCase();
  let name: string;
  let rest: string;
  if (v.startsWith('[')) {
    const end = v.indexOf(']');
    if (end === -1) return undefined;
    name = v.slice(1, end);
    rest = v.slice(end + 1);
  } else {
    const colon = v.indexOf(':');
    name = colon === -1 ? v : v.slice(0, colon);
    rest = colon === -1 ? '' : v.slice(colon);
  }
  if (rest && !/^:\d{1,5}$/.test(rest)) return undefined;
  if (name.endsWith('.')) name = name.slice(0, -1);
  return name || undefined;
}

const WILDCARDS = new Set(['0.0.0.0', '::', '']);

/** A check of the Host header: throws a 421 (the contract's error body) for a name not served here. */
export function hostCheck(listenHost: string, allowedHosts: readonly string[] = []): (value: string | undefined) => void {
  const names = new Set(['127.0.0.1', 'localhost', '::1']);
  for (const h of [listenHost, ...allowedHosts]) {
    const n = hostName(h.includes(':') && !h.startsWith('[') && isIP(h) === 6 ? `[${h}]` : h);
    if (n) names.add(n);
  }
  const anyAddress = WILDCARDS.has(listenHost);
  const shown = [...names].filter((n) => !WILDCARDS.has(n)).map((n) => (n.includes(':') ? `[${n}]` : n));
  // Host values already accepted, as sent (clients send the same one on every request): a
  // request's check is one lookup. Bounded; a value not in it is checked in full.
  const accepted = new Set<string>();
  return (value) => {
    if (value === undefined || accepted.has(value)) return;
    const name = hostName(value);
    if (name !== undefined && (names.has(name) || (anyAddress && isIP(name) !== 0))) {
      if (accepted.size < 64) accepted.add(value);
      return;
    }
    throw new DocsError(
      'misdirected',
      `this server does not answer for host ${JSON.stringify(value.slice(0, 100))} (it answers for ${shown.join(', ')}${anyAddress ? ', any IP address' : ''}; add a name with docs serve --allowed-host)`,
    );
  };
}
