import { Redis } from 'ioredis';
import { describe, expect, it, vi } from 'vitest';
import { createLocalBus, createRedisBus } from './event-bus';

describe('event bus', () => {
  it('delivers in-process events at once', async () => {
    const bus = createLocalBus();
    const seen: unknown[] = [];
    const stop = bus.subscribe('a', (payload) => seen.push(payload));
    await bus.publish('a', { n: 1 });
    expect(seen).toEqual([{ n: 1 }]);
    stop();
    await bus.publish('a', { n: 2 });
    expect(seen).toHaveLength(1);
  });

  it.runIf(Boolean(process.env.REDIS_URL))(
    'with Redis, delivers to its own process at once and to another process once',
    async () => {
      const one = new Redis(process.env.REDIS_URL as string);
      const two = new Redis(process.env.REDIS_URL as string);
      const prefix = `sb:test:${Date.now()}:`;
      const busOne = createRedisBus(one, prefix);
      const busTwo = createRedisBus(two, prefix);
      const own: unknown[] = [];
      const other: unknown[] = [];
      busOne.subscribe('c', (payload) => own.push(payload));
      busTwo.subscribe('c', (payload) => other.push(payload));
      await new Promise((resolve) => setTimeout(resolve, 100));
      await busOne.publish('c', 'hello');
      expect(own).toEqual(['hello']);
      await vi.waitFor(() => expect(other).toEqual(['hello']));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(own).toEqual(['hello']);
      // The events of one turn go in one call, each to its channel, in order.
      const both: unknown[] = [];
      busTwo.subscribe('d', (payload) => both.push(`d:${payload}`));
      busTwo.subscribe('e', (payload) => both.push(`e:${payload}`));
      await new Promise((resolve) => setTimeout(resolve, 100));
      await Promise.all([busOne.publish('d', 1), busOne.publish('e', 2), busOne.publish('d', 3)]);
      await vi.waitFor(() => expect(both).toEqual(['d:1', 'e:2', 'd:3']));
      await busOne.close();
      await busTwo.close();
      one.disconnect();
      two.disconnect();
    },
  );
});
