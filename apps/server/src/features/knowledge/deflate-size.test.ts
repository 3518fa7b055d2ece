import { randomBytes } from 'node:crypto';
import { constants, deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { deflatedRepeat } from '../../testing/compressed-files';
import { DeflateError, inflatedSize } from './deflate-size';

const text = (bytes: number) =>
  Buffer.from(
    Array.from({ length: Math.ceil(bytes / 12) }, (_, i) => `<w:t>${i % 97}</w:t>`)
      .join('')
      .slice(0, bytes),
  );

describe('the inflated size of a deflate stream', () => {
  it('is what zlib inflates, for stored, fixed and dynamic blocks', () => {
    const samples = [Buffer.alloc(0), Buffer.from('a'), randomBytes(70_000), Buffer.alloc(300_000, 97), text(500_000)];
    for (const sample of samples) {
      for (const level of [0, 1, 9]) {
        for (const strategy of [constants.Z_DEFAULT_STRATEGY, constants.Z_FIXED, constants.Z_HUFFMAN_ONLY]) {
          expect(inflatedSize(deflateRawSync(sample, { level, strategy }), Number.MAX_SAFE_INTEGER)).toBe(
            sample.length,
          );
        }
      }
    }
  });

  it('stops at the limit, however far the stream would go', () => {
    const bomb = deflatedRepeat(1024);
    expect(bomb.length).toBeLessThan(1_100_000);
    const started = performance.now();
    expect(inflatedSize(bomb, 100 * 1024 * 1024)).toBeNull();
    expect(performance.now() - started).toBeLessThan(2000);
    expect(inflatedSize(bomb, 1024 * 1024 * 1024)).toBe(1024 * 1024 * 1024);
  });

  it('refuses a stream that ends early or holds an invalid block', () => {
    const stream = deflateRawSync(text(10_000));
    expect(() => inflatedSize(stream.subarray(0, stream.length - 10), 1e9)).toThrow(DeflateError);
    expect(() => inflatedSize(Buffer.from([0x07, 0x00]), 1e9)).toThrow(DeflateError);
  });
});
