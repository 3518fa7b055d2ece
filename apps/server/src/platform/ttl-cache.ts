/**
 * A small in-process cache with a time to live, for hot reads of the chat path (agents, API keys,
 * provider keys, knowledge chunks). Writers in this process invalidate at once; other processes
 * see a change within the TTL.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();
  private readonly loading = new Map<string, Promise<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 5000,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires < Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Sets the value (it becomes the newest entry); the oldest entry goes when the cache is full. */
  set(key: string, value: V): void {
    if (!this.entries.delete(key) && this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expires: Date.now() + this.ttlMs });
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
    this.entries.delete(key);
    this.loading.delete(key);
  }

  deleteWhere(match: (key: string) => boolean): void {
    for (const key of this.entries.keys()) if (match(key)) this.entries.delete(key);
    for (const key of this.loading.keys()) if (match(key)) this.loading.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.loading.clear();
  }
}
