import { describe, expect, it } from 'vitest';
import { isSafeReturnPath, returnPathOn, safeReturnPath } from './return-path';

describe('return paths stay on this site', () => {
  it.each([
    '/\t/evil.example',
    '/\\evil',
    '//evil',
    '/\n/evil',
    '/\r//evil',
    '/a\u0000b',
    'evil',
    '',
    'https://evil.example',
  ])('refuses %j', (value) => {
    expect(isSafeReturnPath(value)).toBe(false);
    expect(safeReturnPath(value, '/agents')).toBe('/agents');
  });

  it('keeps paths with their query and hash', () => {
    expect(safeReturnPath('/usage?tab=credits#top', '/agents')).toBe('/usage?tab=credits#top');
  });

  it('turns an absolute URL of the same origin into its path, and refuses any other', () => {
    const origin = 'https://app.example.com';
    expect(returnPathOn('https://app.example.com/usage?x=1', origin, '/usage')).toBe('/usage?x=1');
    expect(returnPathOn('https://evil.example/usage', origin, '/usage')).toBe('/usage');
    expect(returnPathOn('javascript:alert(1)', origin, '/usage')).toBe('/usage');
    expect(returnPathOn('https://app.example.com\\@evil.example/', origin, '/usage')).toBe('/usage');
    expect(returnPathOn('https://app.example.com/\t/x', origin, '/usage')).toBe('/usage');
    expect(returnPathOn(null, origin, '/usage')).toBe('/usage');
  });
});
