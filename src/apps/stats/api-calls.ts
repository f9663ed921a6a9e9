import type { Db, ObjectId } from 'mongodb';
import { ObjectId as Id } from 'mongodb';
import { upsertCounters } from '../../db.js';
import { dayOf } from '../../clock.js';
import type { StoreRequestObserver } from '../../http/context.js';
import type { Platform } from '../../platform.js';
import { appUsage } from './models.js';

/**
 * Installed apps' API calls, counted by app, day (UTC) and the scope the endpoint required
 * (`none` when it required none): what the partner dashboard shows (docs/apps.md, Partner
 * dashboard). A request is counted once its app token has passed the endpoint's scope and store
 * checks (the apps module's store request observer, which requireStore calls).
 *
 * Counting costs a request nothing: each process adds calls up in memory and writes them
 * together (one bulk write of `$inc` upserts) at most FLUSH_AFTER_MS after the first call it has
 * not written, and when it closes. A process killed outright loses at most that last second of
 * counts: the figures are for a dashboard, not for billing.
 */
const FLUSH_AFTER_MS = 1000;

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

/** Count one call of an app (by id) under a scope; written within a second. */
function countAppCall(db: Db, appId: string, scope: string | null, at: Date): void {
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

/** Count an installed app's call of a store-scoped endpoint (the module's `storeRequestObserver`); other callers are not counted. */
export const countAppCalls: StoreRequestObserver = (platform, { principal, scope }) => {
  if (principal.kind === 'app') countAppCall(platform.db, principal.appId, scope, platform.clock.now());
};

/** Write what this process still holds when the platform closes (the module's `close`); a failure is logged, not thrown. */
export async function closeAppUsage(platform: Platform): Promise<void> {
  await flushAppUsage(platform.db).catch((err: Error) => platform.log.warn({ event: 'app_usage.flush_failed', err: err.message }));
}

/** Write the counts this process holds (one bulk write); on close, and by the timer. */
async function flushAppUsage(db: Db): Promise<void> {
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
      await upsertCounters(appUsage(db), ops);
    } finally {
      counter.flushing = null;
    }
  })();
  await counter.flushing;
}

/** The calls of each app since `sinceDay` (inclusive), by scope: one read. */
export async function appCallsByScope(db: Db, appIds: readonly ObjectId[], sinceDay: string): Promise<Map<string, Map<string, number>>> {
  const docs = await appUsage(db)
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
