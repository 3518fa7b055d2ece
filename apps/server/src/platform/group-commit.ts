/**
 * Group commit: writes asked for at about the same moment (many conversations at once) are stored
 * together by one call of `write`, so a busy server runs one write (a transaction, or a single
 * statement) for many rows instead of one each. The first write of a batch waits for the event
 * loop's next turn, so that the writes arriving with it (the same burst of requests) join it; while
 * a batch is being written, new writes gather for the next one. Each caller's promise settles when
 * its own item is committed. When a batch fails, its items are written again one by one, so a bad
 * item fails only its own caller: `write` must therefore be safe to repeat for an item (idempotent
 * by key, or all-or-nothing).
 */

type Pending<T> = { item: T; resolve: () => void; reject: (error: unknown) => void };

export class GroupCommit<T> {
  private queue: Pending<T>[] = [];
  private scheduled = false;
  private running: Promise<void> | null = null;

  /**
   * @param delayMs how long the first write of a batch waits for others (0: the event loop's next
   *   turn). A longer wait suits writes nobody waits for (metering), which then stay out of the way
   *   of the writes replies wait for.
   */
  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly options: { delayMs?: number; maxBatch?: number } = {},
  ) {}

  /** Resolves once the item is committed; rejects with the error that refused it. */
  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** Resolves when every item added so far has been written or refused. */
  async flush(): Promise<void> {
    while (this.running || this.queue.length) {
      if (this.running) await this.running;
      else await this.drain();
    }
  }

  private schedule() {
    if (this.scheduled || this.running) return;
    this.scheduled = true;
    const start = () => {
      this.scheduled = false;
      if (!this.running) void this.drain();
    };
    if (this.options.delayMs) setTimeout(start, this.options.delayMs);
    else setImmediate(start);
  }

  private drain(): Promise<void> {
    // Nothing queued (a timer firing after flush() already wrote the batch): with an empty queue the
    // body below would finish synchronously, reset `running` before it is assigned, and leave a
    // settled promise in it for good, so later writes would never be scheduled.
    if (this.queue.length === 0) return Promise.resolve();
    this.running = (async () => {
      try {
        while (this.queue.length) {
          const batch = this.queue.slice(0, this.options.maxBatch ?? 500);
          this.queue = this.queue.slice(batch.length);
          await this.writeBatch(batch);
        }
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  private async writeBatch(batch: Pending<T>[]) {
    try {
      await this.write(batch.map((pending) => pending.item));
      for (const pending of batch) pending.resolve();
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.reject(error);
        return;
      }
      for (const pending of batch) {
        try {
          await this.write([pending.item]);
          pending.resolve();
        } catch (single) {
          pending.reject(single);
        }
      }
    }
  }
}
