import { describe, expect, it } from 'vitest';
import { compressToEncodedURIComponent, decompressFromEncodedURIComponent } from '../../src/kernel/lz-string.js';

// Vectors made by lz-string 1.5.0 itself (`LZString.compressToEncodedURIComponent`).
const VECTORS: [string, string][] = [
  ['hello', 'BYUwNmD2Q'],
  [
    '{"componentId":"configure","props":{},"context":{"type":"configuration_account","theme":"light"}}',
    'N4Igxg9gtgDhB2BTeAXAkgExALnAgZgJYDmArgE6IgA0IM5EMAzjsAL62SqIAeKrIFAE8YVXFyJlyAQxSEEAfWlhIpVDUEALRFDEgANiU382bIA',
  ],
  ['ééé ünïcödé 日本語 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'JcgEB+DsHuGMDeAmxSFPTQNOaDyo0BDP+DCjjig'],
  ['', 'Q'],
];

describe('LZ-string, URI-safe form (renderIntegrationUIWithGet)', () => {
  it.each(VECTORS)('compresses %j as lz-string does, and back', (text, packed) => {
    expect(compressToEncodedURIComponent(text)).toBe(packed);
    expect(decompressFromEncodedURIComponent(packed)).toBe(text);
  });

  it('round-trips long, repetitive and unicode text', () => {
    const text = JSON.stringify({ a: 'x'.repeat(5000), b: [...Array(300).keys()], c: '🚀 ünï' });
    expect(decompressFromEncodedURIComponent(compressToEncodedURIComponent(text))).toBe(text);
  });

  it('answers null for what is not the URI-safe form', () => {
    expect(decompressFromEncodedURIComponent('not/base64!')).toBeNull();
    expect(decompressFromEncodedURIComponent('N4Igxg9gtgDhB2BT')).toBeNull(); // truncated
  });
});
