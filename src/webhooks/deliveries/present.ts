import type { DeliveryDocument } from './models.js';
import { stamps } from '../../allow-list.js';

/** A delivery as the operations API shows it; with its attempts on the single read. */
export function presentDelivery(d: DeliveryDocument, withAttempts: boolean) {
  return {
    id: d._id.toHexString(),
    event_id: d.event_id.toHexString(),
    event_type: d.event_type,
    subscription_id: d.subscription_id.toHexString(),
    status: d.status,
    attempt_count: d.attempts.length,
    next_attempt: d.status === 'queued' ? d.next_attempt : null,
    next_attempt_at: d.next_attempt_at?.toISOString() ?? null,
    last_status: d.attempts.at(-1)?.status ?? null,
    last_error: d.attempts.at(-1)?.error ?? null,
    series: d.series,
    completed_at: d.completed_at?.toISOString() ?? null,
    ...stamps(d),
    ...(withAttempts
      ? {
          attempts: d.attempts.map((a) => ({
            series: a.series,
            number: a.number,
            request_id: a.request_id,
            started_at: a.started_at.toISOString(),
            duration_ms: a.duration_ms,
            status: a.status,
            error: a.error,
            response_preview: a.response_preview,
            retry_seconds: a.retry_seconds ?? null,
          })),
        }
      : {}),
  };
}

/** A delivery to an app's installation as its partner sees it: the store's view and the store. */
export const presentAppDelivery = (d: DeliveryDocument, withAttempts: boolean) => ({ ...presentDelivery(d, withAttempts), store_id: d.store_id.toHexString() });

/** An app installation's subscription as the app's partner sees it: where and what it delivers, and how it is doing; never a secret. */
