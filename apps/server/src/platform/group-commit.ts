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
  private readonly inFlight = new Set<Promise<void>>();

  /**
   * @param delayMs how long the first write of a batch waits for others (0: the event loop's next
   *   turn). A longer wait suits writes nobody waits for (metering), which then stay out of the way
   *   of the writes replies wait for.
   * @param maxBatch items written together at most; a batch this full is written at once.
   * @param concurrency batches written at the same time (1: one after the other). More than one
   *   suits a database with a pool of connections, where a batch would otherwise wait for the
   *   previous one's round trip; `write` must then be safe to run alongside itself.
   */
  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly options: { delayMs?: number; maxBatch?: number; concurrency?: number } = {},
  ) {}

  /** Resolves once the item is committed; rejects with the error that refused it. */
  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      // A full batch does not wait for the others.
      if (this.queue.length >= this.maxBatch && this.inFlight.size < this.limit) this.start();
      else this.schedule();
    });
  }

  /** Resolves when every item added so far has been written or refused. */
  async flush(): Promise<void> {
    while (this.inFlight.size || this.queue.length) {
      if (this.queue.length && this.inFlight.size < this.limit) this.start();
      else await Promise.race(this.inFlight);
    }
  }

  private get maxBatch() {
    return this.options.maxBatch ?? 500;
  }

  private get limit() {
    return Math.max(1, this.options.concurrency ?? 1);
  }

  private schedule() {
    if (this.scheduled || this.inFlight.size >= this.limit) return;
    this.scheduled = true;
    const start = () => {
      this.scheduled = false;
      this.start();
    };
    if (this.options.delayMs) setTimeout(start, this.options.delayMs);
    else setImmediate(start);
  }

  /**
   * Writes the next batch. When it is done, the items gathered meanwhile go at once, or, with a
   * gathering window (`delayMs`), after a window of their own unless they fill a batch: otherwise
   * every write would be followed by one of the few items that came during it, each paying the
   * whole cost of a write (metering's: a transaction that locks the account).
   */
  private start() {
    // Nothing queued: a timer firing after flush() already wrote the batch.
    if (this.queue.length === 0 || this.inFlight.size >= this.limit) return;
    const batch = this.queue.slice(0, this.maxBatch);
    this.queue = this.queue.slice(batch.length);
    const written: Promise<void> = this.writeBatch(batch).finally(() => {
      this.inFlight.delete(written);
      if (this.queue.length === 0) return;
      if (this.options.delayMs && this.queue.length < this.maxBatch) this.schedule();
      else this.start();
    });
    this.inFlight.add(written);
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
