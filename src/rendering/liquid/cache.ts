/** A bounded map that forgets the least recently used entry first (a render thread's compiled theme versions). */
export class LruCache<V> {
  private readonly entries = new Map<string, V>();

  constructor(readonly maxEntries: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** The entry, now the most recently used. */
  get(key: string): V | undefined {
    const found = this.entries.get(key);
    if (found !== undefined) {
      // Re-inserted: a Map iterates in insertion order, so the first key is the least recently used.
      this.entries.delete(key);
      this.entries.set(key, found);
    }
    return found;
  }

  /** Keep `value` under `key`, evicting the oldest entries past the bound (each told to `onEvict`, as is a value replaced). */
  set(key: string, value: V, onEvict: (evicted: V) => void = () => {}): void {
    const replaced = this.entries.get(key);
    if (replaced !== undefined) {
      this.entries.delete(key);
      onEvict(replaced);
    }
    this.entries.set(key, value);
    while (this.entries.size > this.maxEntries) this.evictOldest(onEvict);
  }

  evictOldest(onEvict: (evicted: V) => void = () => {}): void {
    const oldest = this.entries.keys().next();
    if (oldest.done) return;
    const value = this.entries.get(oldest.value)!;
    this.entries.delete(oldest.value);
    onEvict(value);
  }
}
