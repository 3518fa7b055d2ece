import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit';

describe('group commit', () => {
  it('writes the items added together in one batch, and later ones in the next', async () => {
    const batches: number[][] = [];
    const writer = new GroupCommit<number>(async (items) => {
      batches.push(items);
      await new Promise((resolve) => setTimeout(resolve, 5));
    });
    await Promise.all([1, 2, 3].map((n) => writer.add(n)));
    await Promise.all([4, 5].map((n) => writer.add(n)));
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('writes a full batch at once, without waiting out the delay', async () => {
    const batches: number[][] = [];
    const writer = new GroupCommit<number>(
      async (items) => {
        batches.push(items);
      },
      { delayMs: 60_000, maxBatch: 3 },
    );
    await Promise.all([1, 2, 3].map((n) => writer.add(n)));
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('gathers items that arrive while a batch is being written', async () => {
    const batches: number[][] = [];
    const writer = new GroupCommit<number>(async (items) => {
      batches.push(items);
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    const first = writer.add(1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await Promise.all([first, writer.add(2), writer.add(3)]);
    expect(batches).toEqual([[1], [2, 3]]);
  });

  it('with a window, items that arrive during a write wait for a window of their own', async () => {
    const batches: number[][] = [];
    const writer = new GroupCommit<number>(
      async (items) => {
        batches.push(items);
        await new Promise((resolve) => setTimeout(resolve, 20));
      },
      { delayMs: 60 },
    );
    const first = writer.add(1);
    await new Promise((resolve) => setTimeout(resolve, 70));
    // Written during the first batch's write: not a batch of one right after it.
    const second = writer.add(2);
    await first;
    await new Promise((resolve) => setTimeout(resolve, 20));
    const third = writer.add(3);
    await Promise.all([second, third]);
    expect(batches).toEqual([[1], [2, 3]]);
  });

  it('fails only the item that cannot be written', async () => {
    const written: string[] = [];
    const writer = new GroupCommit<string>(async (items) => {
      if (items.includes('bad')) throw new Error('refused');
      written.push(...items);
    });
    const results = await Promise.allSettled(['a', 'bad', 'b'].map((item) => writer.add(item)));
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(written).toEqual(['a', 'b']);
  });

  it('waits the delay before writing, and flush writes at once', async () => {
    const batches: number[][] = [];
    const writer = new GroupCommit<number>(
      async (items) => {
        batches.push(items);
      },
      { delayMs: 10_000 },
    );
    const added = writer.add(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(batches).toEqual([]);
    await writer.flush();
    await added;
    expect(batches).toEqual([[1]]);
  });

  it('keeps writing after its delay timer fires on a queue that flush already wrote', async () => {
    const batches: number[][] = [];
    const writer = new GroupCommit<number>(
      async (items) => {
        batches.push(items);
      },
      { delayMs: 10 },
    );
    void writer.add(1);
    await writer.flush();
    // The timer of the first add fires now, with nothing left to write.
    await new Promise((resolve) => setTimeout(resolve, 30));
    const second = writer.add(2);
    await Promise.race([second, writer.flush()]);
    await second;
    expect(batches).toEqual([[1], [2]]);
  });

  it('writes up to `concurrency` batches at the same time', async () => {
    const batches: number[][] = [];
    let open = 0;
    let most = 0;
    const release: (() => void)[] = [];
    const writer = new GroupCommit<number>(
      async (items) => {
        batches.push(items);
        open += 1;
        most = Math.max(most, open);
        await new Promise<void>((resolve) => release.push(resolve));
        open -= 1;
      },
      { concurrency: 2 },
    );
    const first = writer.add(1);
    await new Promise((resolve) => setImmediate(resolve));
    const second = writer.add(2);
    await new Promise((resolve) => setImmediate(resolve));
    const third = writer.add(3);
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([[1], [2]]);
    for (const done of release.splice(0)) done();
    await Promise.all([first, second]);
    await new Promise((resolve) => setImmediate(resolve));
    for (const done of release.splice(0)) done();
    await third;
    expect(batches).toEqual([[1], [2], [3]]);
    expect(most).toBe(2);
  });
});
