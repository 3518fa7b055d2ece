import { afterEach, describe, expect, it, vi } from 'vitest';
import { TtlCache } from './ttl-cache';

describe('TtlCache', () => {
  afterEach(() => vi.useRealTimers());

  it('keeps the values under its byte budget, dropping the oldest first', () => {
    const cache = new TtlCache<string>(60_000, 1000, { maxBytes: 100, sizeOf: (value) => value.length });
    cache.set('a', 'x'.repeat(40));
    cache.set('b', 'x'.repeat(40));
    cache.set('c', 'x'.repeat(40));
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeDefined();
    expect(cache.size).toEqual({ entries: 2, bytes: 80 });
    // Heavier than the whole budget: not kept, and nothing else is dropped for it.
    cache.set('huge', 'x'.repeat(101));
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.size.entries).toBe(2);
    cache.delete('b');
    expect(cache.size).toEqual({ entries: 1, bytes: 40 });
  });

  it('drops expired entries when a value is set, not only when they are read', () => {
    vi.useFakeTimers();
    const cache = new TtlCache<string>(1_000, 1000, { maxBytes: 10_000, sizeOf: (value) => value.length });
    for (let i = 0; i < 50; i += 1) cache.set(`old${i}`, 'x'.repeat(100));
    vi.advanceTimersByTime(1_500);
    cache.set('new', 'y');
    expect(cache.size).toEqual({ entries: 1, bytes: 1 });
  });

  it('still bounds the number of entries', () => {
    const cache = new TtlCache<number>(60_000, 3);
    for (let i = 0; i < 5; i += 1) cache.set(String(i), i);
    expect(cache.size.entries).toBe(3);
    expect(cache.get('0')).toBeUndefined();
    expect(cache.get('4')).toBe(4);
  });
});
