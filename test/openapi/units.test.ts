import { describe, expect, it } from 'vitest';
import { refusedAddress } from '../../src/openapi/fetch.js';
import { pointerAtLine } from '../../src/openapi/pipeline.js';

describe('fetch guard: which addresses are refused', () => {
  it('allows public unicast only, judging IPv4-mapped IPv6 as the IPv4 it carries', async () => {
    const ip = ((await import('ipaddr.js')) as any).default;
    const refused = [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
    ];
    for (const a of refused) expect(refusedAddress(ip, a), a).toBeDefined();
    for (const a of ['93.184.215.14', '2606:4700:4700::1111', '::ffff:93.184.215.14']) expect(refusedAddress(ip, a), a).toBeUndefined();
    expect(refusedAddress(ip, '127.0.0.1')).toBe('127.0.0.1 is a loopback address');
  });
});

describe('validator locations', () => {
  it('maps a line of the 2-space JSON rendering back to a JSON pointer', () => {
    const doc = { a: 1, b: { 'c/d': [10, { e: {} }], f: [] }, g: 'x' };
    const lines = JSON.stringify(doc, null, 2).split('\n');
    const at = (text: string) => pointerAtLine(doc, lines.findIndex((l) => l.includes(text)) + 1);
    expect(at('"a"')).toBe('/a');
    expect(at('"b"')).toBe('/b');
    expect(at('"c/d"')).toBe('/b/c~1d');
    expect(at('10')).toBe('/b/c~1d/0');
    expect(at('"e"')).toBe('/b/c~1d/1/e');
    expect(at('"f"')).toBe('/b/f');
    expect(at('"g"')).toBe('/g');
    expect(pointerAtLine(doc, 1)).toBe('/');
  });
});
