import { describe, expect, it } from 'vitest';
import { isOriginAllowed } from './domains';

describe('isOriginAllowed', () => {
  it('allows every site when the list is empty', () => {
    expect(isOriginAllowed([], 'https://anything.example')).toBe(true);
    expect(isOriginAllowed([], null)).toBe(true);
  });

  it('matches host names (and www), wildcards, host:port and full origins', () => {
    const list = ['shop.example.com', '*.client.io', 'localhost:8080', 'https://exact.org'];
    expect(isOriginAllowed(list, 'https://shop.example.com')).toBe(true);
    expect(isOriginAllowed(list, 'http://www.shop.example.com')).toBe(true);
    expect(isOriginAllowed(list, 'https://a.b.client.io')).toBe(true);
    expect(isOriginAllowed(list, 'http://localhost:8080')).toBe(true);
    expect(isOriginAllowed(list, 'https://exact.org')).toBe(true);
    expect(isOriginAllowed(list, 'http://exact.org')).toBe(false);
    expect(isOriginAllowed(list, 'http://localhost:9090')).toBe(false);
    expect(isOriginAllowed(list, 'https://evilshop.example.com')).toBe(false);
    expect(isOriginAllowed(list, 'https://shop.example.com.evil.net')).toBe(false);
    expect(isOriginAllowed(list, null)).toBe(false);
    expect(isOriginAllowed(list, 'not a url')).toBe(false);
  });
});
