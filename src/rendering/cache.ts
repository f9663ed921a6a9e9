/** A bounded map that forgets the least recently used entry first (compiled themes, by cache key). */
export class LruCache<V> {
  private readonly entries = new Map<string, V>();
  hits = 0;
  misses = 0;

  constructor(readonly maxEntries: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** The entry for `key`, made by `make` on a miss (and the oldest entry evicted past the bound). */
  getOrCreate(key: string, make: () => V): V {
    const found = this.entries.get(key);
    if (found !== undefined) {
      this.hits++;
      // Re-inserted: a Map iterates in insertion order, so the first key is the least recently used.
      this.entries.delete(key);
      this.entries.set(key, found);
      return found;
    }
    this.misses++;
    const made = make();
    this.entries.set(key, made);
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return made;
  }
}
