import { describe, expect, it } from 'vitest';
import { onFirstUse } from './on-first-use';

describe('onFirstUse', () => {
  it('loads the package and makes its value on the first call only', () => {
    let made = 0;
    const separator = onFirstUse<typeof import('node:path'), string>('node:path', (loaded) => {
      made += 1;
      return loaded.sep;
    });
    expect(made).toBe(0);
    expect(separator()).toBe('/');
    expect(separator()).toBe('/');
    expect(made).toBe(1);
  });

  it('answers the package itself without a maker', () => {
    const papa = onFirstUse<typeof import('papaparse')>('papaparse');
    expect(papa().unparse([['a', 'b']])).toBe('a,b');
  });
});
