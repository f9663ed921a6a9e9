import type { Db, ObjectId } from 'mongodb';
import { MongoBulkWriteError, ObjectId as Id } from 'mongodb';
import type { IndexDeclaration } from '../db.js';

/**
 * Installed apps' API calls, counted by app, day (UTC) and the scope the endpoint required
 * (`none` when it required none): what the partner dashboard shows (docs/apps.md, Partner
 * dashboard). A request is counted once its app token has passed the endpoint's scope and store
 * checks (requireStore).
 *
 * Counting costs a request nothing: each process adds calls up in memory and writes them
 * together (one bulk write of `$inc` upserts) at most FLUSH_AFTER_MS after the first call it has
 * not written, and when it closes. A process killed outright loses at most that last second of
 * counts: the figures are for a dashboard, not for billing.
 */
export const APP_API_USAGE = 'app_api_usage';
const FLUSH_AFTER_MS = 1000;

export type AppUsageDocument = { _id: string; app_id: ObjectId; day: string; scope: string; calls: number };

export const appUsageIndexes: IndexDeclaration[] = [{ collection: APP_API_USAGE, indexes: [{ key: { app_id: 1, day: 1 }, name: 'app_id_day' }] }];

const usage = (db: Db) => db.collection<AppUsageDocument>(APP_API_USAGE);

type Counter = {
  counts: Map<string, { app_id: string; day: string; scope: string; calls: number }>;
  timer: NodeJS.Timeout | null;
  flushing: Promise<void> | null;
};
const counters = new WeakMap<Db, Counter>();

function counterOf(db: Db): Counter {
  let counter = counters.get(db);
  if (!counter) counters.set(db, (counter = { counts: new Map(), timer: null, flushing: null }));
  return counter;
}

/** The UTC day of a time, `YYYY-MM-DD`. */
export const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** Count one call of an app (by id) under a scope; written within a second. */
export function countAppCall(db: Db, appId: string, scope: string | null, at: Date): void {
  const counter = counterOf(db);
  const day = dayOf(at);
  const name = scope ?? 'none';
  const key = `${appId}:${day}:${name}`;
  const entry = counter.counts.get(key);
  if (entry) entry.calls++;
  else counter.counts.set(key, { app_id: appId, day, scope: name, calls: 1 });
  if (!counter.timer) {
    counter.timer = setTimeout(() => void flushAppUsage(db).catch(() => undefined), FLUSH_AFTER_MS);
    counter.timer.unref();
  }
}

/** Write the counts this process holds (one bulk write); on close, and by the timer. */
export async function flushAppUsage(db: Db): Promise<void> {
  const counter = counterOf(db);
  if (counter.timer) clearTimeout(counter.timer);
  counter.timer = null;
  while (counter.flushing) await counter.flushing;
  if (counter.counts.size === 0) return;
  const batch = [...counter.counts.entries()];
  counter.counts.clear();
  counter.flushing = (async () => {
    const ops = batch.map(([id, c]) => ({
      updateOne: {
        filter: { _id: id },
        update: { $inc: { calls: c.calls }, $setOnInsert: { app_id: new Id(c.app_id), day: c.day, scope: c.scope } },
        upsert: true,
      },
    }));
    try {
      await usage(db).bulkWrite(ops, { ordered: false });
    } catch (err) {
      // Two processes inserting the same day's counter at once: the loser's upserts are refused
      // as duplicates and now find the document; write those again (only those).
      const failed =
        err instanceof MongoBulkWriteError
          ? [err.writeErrors]
              .flat()
              .filter((e) => e.code === 11000)
              .map((e) => e.index)
          : [];
      if (failed.length === 0) throw err;
      await usage(db).bulkWrite(
        failed.map((i) => ops[i]!),
        { ordered: false },
      );
    } finally {
      counter.flushing = null;
    }
  })();
  await counter.flushing;
}

/** The calls of each app since `sinceDay` (inclusive), by scope: one read. */
export async function appCallsByScope(db: Db, appIds: readonly ObjectId[], sinceDay: string): Promise<Map<string, Map<string, number>>> {
  const docs = await usage(db)
    .find({ app_id: { $in: [...appIds] }, day: { $gte: sinceDay } })
    .toArray();
  const out = new Map<string, Map<string, number>>();
  for (const d of docs) {
    const key = d.app_id.toHexString();
    const byScope = out.get(key) ?? new Map<string, number>();
    byScope.set(d.scope, (byScope.get(d.scope) ?? 0) + d.calls);
    out.set(key, byScope);
  }
  return out;
}
