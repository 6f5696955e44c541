import { describe, expect, it } from 'vitest';
import { rateLimitKey } from '../../../server/src/http/address-key.js';

describe('rateLimitKey (B13)', () => {
  it('keeps an IPv4 address as it is, also when it comes IPv4-mapped', () => {
    expect(rateLimitKey('198.51.100.7')).toBe('198.51.100.7');
    expect(rateLimitKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
  });

  it('counts every address of one IPv6 /64 as one, however it is written', () => {
    const keys = ['2001:db8:1:2::1', '2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2:a:b:1.2.3.4'].map(
      rateLimitKey,
    );
    expect(new Set(keys)).toEqual(new Set(['2001:db8:1:2::/64']));
    expect(rateLimitKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(rateLimitKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('leaves what is not an address alone', () => {
    expect(rateLimitKey('unknown')).toBe('unknown');
  });
});
