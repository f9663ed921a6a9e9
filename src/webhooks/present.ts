import type { DeliveryDocument, SubscriptionDocument } from './store.js';

/** A subscription as the API, events and logs show it: never a secret, sealed or not. */
export type SubscriptionView = {
  id: string;
  target_url: string;
  event_types: string[];
  active: boolean;
  description: string | null;
  disabled_reason: 'gone' | 'failing' | null;
  disabled_at: string | null;
  owner: { type: 'merchant' | 'app_installation'; id: string };
  /** When the current signing secret was made (creation or the last rotation); null for an app's (it signs with the app's secret). */
  secret_rotated_at: string | null;
  /** Until when the previous secret also signs, after a rotation with a grace period. */
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
};

/** The create and rotate-secret responses: the view plus the new secret, shown this once. */
export type SubscriptionWithSecret = SubscriptionView & { secret: string };

export const presentSubscription = (s: SubscriptionDocument): SubscriptionView => ({
  id: s._id.toHexString(),
  target_url: s.target_url,
  event_types: [...s.event_types],
  active: s.active,
  description: s.description,
  disabled_reason: s.disabled_reason,
  disabled_at: s.disabled_at ? s.disabled_at.toISOString() : null,
  owner: { type: s.owner.type, id: s.owner.id.toHexString() },
  secret_rotated_at: s.secret?.created_at.toISOString() ?? null,
  previous_secret_expires_at: s.previous_secret ? s.previous_secret.expires_at.toISOString() : null,
  created_at: s.created_at.toISOString(),
  updated_at: s.updated_at.toISOString(),
});

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
    created_at: d.created_at.toISOString(),
    updated_at: d.updated_at.toISOString(),
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
export type AppSubscriptionView = {
  id: string;
  store_id: string;
  target_url: string;
  event_types: string[];
  active: boolean;
  disabled_reason: 'gone' | 'failing' | null;
  disabled_at: string | null;
  consecutive_failed_deliveries: number;
  created_at: string;
  updated_at: string;
};

export const presentAppSubscription = (s: SubscriptionDocument): AppSubscriptionView => ({
  id: s._id.toHexString(),
  store_id: s.store_id.toHexString(),
  target_url: s.target_url,
  event_types: [...s.event_types],
  active: s.active,
  disabled_reason: s.disabled_reason,
  disabled_at: s.disabled_at ? s.disabled_at.toISOString() : null,
  consecutive_failed_deliveries: s.consecutive_failed_deliveries,
  created_at: s.created_at.toISOString(),
  updated_at: s.updated_at.toISOString(),
});
