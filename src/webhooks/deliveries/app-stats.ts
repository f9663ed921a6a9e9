import type { ObjectId } from 'mongodb';
import { dayOf } from '../../clock.js';
import type { Platform } from '../../platform.js';
import { subscriptions } from '../subscriptions/models.js';
import { appWebhookDays as days } from './models.js';

/**
 * Delivery figures of app webhooks for the partner dashboard (docs/apps.md, Partner dashboard),
 * counted as deliveries end, per app and UTC day (`_id` `<app id>:<day>`): deliveries that
 * ended successful, deliveries that ended failed, and failed attempts that were retried. The
 * dashboard reads a few small documents whatever the number of deliveries.
 */
export type AttemptEnd = 'successful' | 'failed' | 'retry_scheduled';

/** Count how an attempt of a delivery to an app ended. */
export async function countAppAttempt(platform: Pick<Platform, 'db' | 'clock'>, appId: ObjectId, end: AttemptEnd): Promise<void> {
  const day = dayOf(platform.clock.now());
  const field = end === 'retry_scheduled' ? 'retried' : end;
  const filter = { _id: `${appId.toHexString()}:${day}` };
  try {
    await days(platform.db).updateOne(filter, { $inc: { [field]: 1 }, $setOnInsert: { app_id: appId, day } }, { upsert: true });
  } catch (err) {
    if ((err as { code?: number }).code !== 11000) throw err;
    await days(platform.db).updateOne(filter, { $inc: { [field]: 1 } }); // the first of the day, written by another process a moment before
  }
}

export type AppDeliveryFigures = {
  successful: number;
  failed: number;
  retried: number;
  /** successful / (successful + failed), or null when none ended in the window. */
  success_rate: number | null;
  /** The app's installation subscriptions whose deliveries are failing now (failures in a row, or disabled), worst first, at most 10. */
  failing_endpoints: {
    installation_id: string;
    store_id: string;
    target_url: string;
    consecutive_failed_deliveries: number;
    active: boolean;
    disabled_reason: 'gone' | 'failing' | null;
  }[];
};

/** Each app's delivery figures since `sinceDay` (inclusive): two reads per app at most. */
export async function appDeliveryFigures(
  platform: Pick<Platform, 'db'>,
  appIds: readonly ObjectId[],
  sinceDay: string,
): Promise<Map<string, AppDeliveryFigures>> {
  const docs =
    appIds.length > 0
      ? await days(platform.db)
          .find({ app_id: { $in: [...appIds] }, day: { $gte: sinceDay } })
          .toArray()
      : [];
  const out = new Map<string, AppDeliveryFigures>();
  for (const appId of appIds) {
    const mine = docs.filter((d) => d.app_id.equals(appId));
    const sum = (k: 'successful' | 'failed' | 'retried') => mine.reduce((n, d) => n + (d[k] ?? 0), 0);
    const [successful, failed, retried] = [sum('successful'), sum('failed'), sum('retried')];
    const failing = await subscriptions(platform.db)
      .find({ app_id: appId, consecutive_failed_deliveries: { $gt: 0 } })
      .sort({ consecutive_failed_deliveries: -1 })
      .limit(10)
      .toArray();
    out.set(appId.toHexString(), {
      successful,
      failed,
      retried,
      success_rate: successful + failed > 0 ? Math.round((successful / (successful + failed)) * 10_000) / 10_000 : null,
      failing_endpoints: failing.map((s) => ({
        installation_id: s._id.toHexString(),
        store_id: s.store_id.toHexString(),
        target_url: s.target_url,
        consecutive_failed_deliveries: s.consecutive_failed_deliveries,
        active: s.active,
        disabled_reason: s.disabled_reason,
      })),
    });
  }
  return out;
}
