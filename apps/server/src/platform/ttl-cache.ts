/**
 * A small in-process cache with a time to live, for hot reads of the chat path (agents, API keys,
 * provider keys, knowledge chunks). Writers in this process invalidate at once; other processes
 * see a change within the TTL. Bounded by entries, and by bytes where values differ in size (an
 * agent's knowledge); expired entries are dropped whenever a value is set.
 */
export interface TtlCacheBytes<V> {
  /** The most the kept values may weigh together, as `sizeOf` counts. */
  maxBytes: number;
  /** About how many bytes a value holds in memory. */
  sizeOf: (value: V) => number;
}

export class TtlCache<V> {
  /** In the order values were set, which is also the order they expire in (one TTL for all). */
  private readonly entries = new Map<string, { value: V; expires: number; bytes: number }>();
  private readonly loading = new Map<string, Promise<V>>();
  private bytes = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 5000,
    private readonly weight: TtlCacheBytes<V> | null = null,
  ) {}

  /** The bytes the kept values weigh, as the cache's `sizeOf` counts (0 without one). */
  get size() {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires < Date.now()) {
      this.remove(key);
      return undefined;
    }
    return entry.value;
  }

  /**
   * Sets the value (it becomes the newest entry). Expired entries go first, then the oldest ones
   * while the cache holds too many entries or too many bytes. A value heavier than the whole
   * budget is not kept.
   */
  set(key: string, value: V): void {
    this.remove(key);
    const bytes = this.weight ? this.weight.sizeOf(value) : 0;
    if (this.weight && bytes > this.weight.maxBytes) return;
    this.sweepExpired();
    while (
      this.entries.size > 0 &&
      (this.entries.size >= this.maxEntries || (this.weight && this.bytes + bytes > this.weight.maxBytes))
    ) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.remove(oldest);
    }
    this.entries.set(key, { value, expires: Date.now() + this.ttlMs, bytes });
    this.bytes += bytes;
  }

  /** Drops the expired entries: they are the oldest, so the walk stops at the first live one. */
  private sweepExpired() {
    const now = Date.now();
    for (const [key, entry] of this.entries) {
      if (entry.expires >= now) break;
      this.remove(key);
    }
  }

  private remove(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= entry.bytes;
    this.entries.delete(key);
  }

  /**
   * The cached value, else one load shared by every caller that misses meanwhile (a burst of
   * requests after expiry runs one query, not one each). `keep` says whether to cache the loaded
   * value; a value deleted while it was loading is not cached.
   */
  getOrLoad(key: string, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    const hit = this.get(key);
    if (hit !== undefined) return Promise.resolve(hit);
    const running = this.loading.get(key);
    if (running) return running;
    const promise: Promise<V> = load()
      .then((value) => {
        if (this.loading.get(key) === promise && keep(value)) this.set(key, value);
        return value;
      })
      .finally(() => {
        if (this.loading.get(key) === promise) this.loading.delete(key);
      });
    this.loading.set(key, promise);
    return promise;
  }

  delete(key: string): void {
    this.remove(key);
    this.loading.delete(key);
  }

  deleteWhere(match: (key: string) => boolean): void {
    for (const key of this.entries.keys()) if (match(key)) this.remove(key);
    for (const key of this.loading.keys()) if (match(key)) this.loading.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.loading.clear();
    this.bytes = 0;
  }
}
