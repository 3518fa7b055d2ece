/**
 * A small in-process cache with a time to live, for hot reads of the chat path (agents, API keys,
 * provider keys, knowledge chunks). Writers in this process invalidate at once; other processes
 * see a change within the TTL.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();

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

  set(key: string, value: V): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expires: Date.now() + this.ttlMs });
  }

  async getOrLoad(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const value = await load();
    this.set(key, value);
    return value;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  deleteWhere(match: (key: string) => boolean): void {
    for (const key of this.entries.keys()) if (match(key)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
