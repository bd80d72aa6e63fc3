import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';

// The one guard of requests this process makes to addresses a user chose (OpenAPI and file URL
// fetches: src/openapi/fetch.ts; the integration development tunnel: src/integrations/delivery.ts).
// A user must not turn the server against its host or its network (SSRF, port probing): only
// public unicast addresses are reached (no loopback, private, link-local, unique-local, CGNAT,
// multicast, NAT64/6to4/Teredo or reserved ranges). Every form of an address is normalized first:
// the URL parser already turns `2130706433`, `0x7f.1`, `0177.0.0.1` and `127.0.0.1.` into
// `127.0.0.1`; IPv4-mapped (`::ffff:127.0.0.1`) and IPv4-compatible (`::127.0.0.1`, which the URL
// parser writes `::7f00:1`) IPv6 addresses are judged as the IPv4 address they carry. A host name
// is judged by every address it resolves to, in the connection's own DNS lookup, so the address
// connected to is the one checked (a second DNS answer cannot differ: no rebinding).

export type Ipaddr = typeof import('ipaddr.js');
let ipaddr: Ipaddr | undefined;
/** ipaddr.js, loaded on the first outbound request only. */
export async function loadIpaddr(): Promise<Ipaddr> {
  return (ipaddr ??= ((await import('ipaddr.js')) as any).default ?? (await import('ipaddr.js')));
}

/** The address as ipaddr.js judges it: an IPv4 address inside an IPv6 one (mapped or compatible) as that IPv4 address. */
function normalized(ip: Ipaddr, address: string) {
  const parsed = ip.process(address.replace(/^\[|\]$/g, '').replace(/\.$/, '')); // mapped IPv6 -> IPv4
  if (parsed.kind() === 'ipv6') {
    const bytes = (parsed as import('ipaddr.js').IPv6).toByteArray();
    // ::a.b.c.d (IPv4-compatible, deprecated by RFC 4291): the first 96 bits are zero. `::` and `::1` stay as they are.
    if (bytes.slice(0, 12).every((b) => b === 0) && !(bytes.slice(12, 15).every((b) => b === 0) && bytes[15]! <= 1)) {
      return ip.fromByteArray(bytes.slice(12));
    }
  }
  return parsed;
}

/** Why `address` may not be connected to, or undefined when it is a public unicast address. */
export function refusedAddress(ip: Ipaddr, address: string): string | undefined {
  let parsed;
  try {
    parsed = normalized(ip, address);
  } catch {
    return `${address} is not an IP address`;
  }
  const range = parsed.range();
  if (range === 'unicast') return undefined;
  const shown = parsed.toString();
  return shown === address ? `${address} is a ${range} address` : `${address} (${shown}) is a ${range} address`;
}

/** Why the host of `url` (an IP literal, as the URL parser normalized it) is refused; undefined for public addresses and host names. */
export function refusedLiteral(ip: Ipaddr, url: URL): string | undefined {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? refusedAddress(ip, host) : undefined;
}

/** The code of a connection refused by the guard (on the error or its cause). */
export const REFUSED_CODE = 'EDOCSREFUSED';

/**
 * A `lookup` for net/tls/undici connections that fails with REFUSED_CODE when any address of the
 * name is refused (`hint` ends the message: how to allow it), and connects to the checked ones.
 */
export function guardedLookup(ip: Ipaddr, hint: string) {
  return (hostname: string, options: any, callback: (err: Error | null, address?: any, family?: number) => void) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err);
      for (const a of addresses) {
        const why = refusedAddress(ip, a.address);
        if (why) return callback(Object.assign(new Error(`${hostname}: ${why}: ${hint}`), { code: REFUSED_CODE }));
      }
      if (options?.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
