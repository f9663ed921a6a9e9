/**
 * Group commit: one write command for many callers. A call made while `inFlight` flushes are
 * out waits and goes with the others in the next one (up to `maxBatch` items), so a lone call
 * is written at once and a burst costs a few commands instead of one each. Every caller gets
 * its own item's result, or the flush's error.
 *
 * `flush` receives the items in call order and answers one result per item, in that order.
 */
export function groupCommit<T, R>(flush: (items: T[]) => Promise<R[]>, options: { maxBatch: number; inFlight?: number }): (item: T) => Promise<R> {
  type Waiter = { item: T; resolve: (r: R) => void; reject: (err: unknown) => void };
  const waiting: Waiter[] = [];
  const inFlight = options.inFlight ?? 1;
  let running = 0;

  const pump = () => {
    while (running < inFlight && waiting.length > 0) {
      const batch = waiting.splice(0, options.maxBatch);
      running++;
      flush(batch.map((w) => w.item))
        .then(
          (results) => {
            if (results.length !== batch.length) throw new Error(`group commit: ${results.length} results for ${batch.length} items`);
            batch.forEach((w, i) => w.resolve(results[i]!));
          },
          (err: unknown) => batch.forEach((w) => w.reject(err)),
        )
        .catch((err: unknown) => batch.forEach((w) => w.reject(err)))
        .finally(() => {
          running--;
          pump();
        });
    }
  };

  return (item) =>
    new Promise<R>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      pump();
    });
}
