import { describe, expect, it } from 'vitest';
import { newId, newKey } from './ids';

describe('ids', () => {
  it('draws ids and keys from the pool without repeats, across pool refills', () => {
    const keys = new Set(Array.from({ length: 2000 }, () => newKey()));
    expect(keys.size).toBe(2000);
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(newKey(9)).toMatch(/^[A-Za-z0-9_-]{12}$/);
    const ids = new Set(Array.from({ length: 500 }, () => newId('thread')));
    expect(ids.size).toBe(500);
  });
});
