import { countsBy } from '../../db.js';
import type { Platform } from '../../platform.js';
import { deliveries } from './models.js';

/**
 * The webhooks part of the operators' overview (docs/operations.md): deliveries waiting to be
 * sent (queued: due now, or retrying later) and how late the oldest due one is (the
 * `status_next_attempt_at` index).
 */
export async function webhooksOverview(platform: Platform) {
  const now = platform.clock.now();
  const coll = deliveries(platform.db);
  const [counts, oldest] = await Promise.all([
    countsBy(coll, { queued: { status: 'queued' }, due: { status: 'queued', next_attempt_at: { $lte: now } } }),
    coll.findOne({ status: 'queued', next_attempt_at: { $lte: now } }, { sort: { next_attempt_at: 1 }, projection: { next_attempt_at: 1 } }),
  ]);
  const dueAt = oldest?.next_attempt_at ?? null;
  return {
    webhook_deliveries: {
      ...counts,
      oldest_due_at: dueAt?.toISOString() ?? null,
      oldest_due_lag_seconds: dueAt ? Math.max(0, Math.round((now.getTime() - dueAt.getTime()) / 1000)) : 0,
    },
  };
}
