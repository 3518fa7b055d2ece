import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startIdleCollector } from './idle-gc';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const spin = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Keeps the event loop busy.
  }
};

describe('idle collector', () => {
  it('collects when idle once after start and after the heap has grown, not again without new growth', async () => {
    let heap = 100;
    let collections = 0;
    const collector = startIdleCollector({
      intervalMs: 20,
      idleIntervals: 1,
      minGrowthBytes: 50,
      heapBytes: () => heap,
      collect: () => {
        collections += 1;
        heap = 110;
      },
    });
    try {
      // Once after start, then not again until the heap grows.
      await wait(80);
      expect(collections).toBe(1);
      await wait(60);
      expect(collections).toBe(1);
      heap = 200;
      await wait(80);
      expect(collections).toBe(2);
      await wait(80);
      expect(collections).toBe(2);
    } finally {
      collector.stop();
    }
  });

  it('waits while the event loop is busy', async () => {
    let collections = 0;
    const collector = startIdleCollector({
      intervalMs: 20,
      idleIntervals: 1,
      minGrowthBytes: 0,
      heapBytes: () => 1000,
      collect: () => {
        collections += 1;
      },
    });
    try {
      for (let i = 0; i < 5; i += 1) {
        spin(25);
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(collections).toBe(0);
    } finally {
      collector.stop();
    }
  });

  it('sets the heap growth V8 uses after a full collection (a flag of the running process)', () => {
    const growthAfterCollection = (percent: number) => {
      const child = spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          '--expose-gc',
          '--trace-gc-verbose',
          '--input-type=module',
          '-e',
          `const { setHeapGrowth } = await import('./apps/server/src/platform/idle-gc.ts'); setHeapGrowth(${percent}); globalThis.gc();`,
        ],
        { cwd: root, encoding: 'utf8' },
      );
      return child.stdout.match(/\[HeapController\] Limit: .*\((\d+\.\d)\)/)?.[1];
    };
    expect(growthAfterCollection(100)).toBe('2.0');
    expect(growthAfterCollection(50)).toBe('1.5');
  });
});
