import type { SubscriptionDocument, SubscriptionHealth } from './models.js';
import { stamps } from '../../allow-list.js';

/** A subscription's health (docs/webhooks.md, Subscription health), as every view of it shows it. */
export type HealthView = {
  health: SubscriptionHealth;
  failure_streak: number;
  last_error: { status: number | null; message: string; at: string } | null;
  failing_since: string | null;
  last_success_at: string | null;
};

/** Subscriptions older than issue 26 have no health fields: healthy, or disabled when the platform disabled them. */
export const healthOf = (s: Pick<SubscriptionDocument, 'health' | 'disabled_reason'>): SubscriptionHealth =>
  s.health ?? (s.disabled_reason ? 'disabled' : 'healthy');

export const presentHealth = (s: SubscriptionDocument): HealthView => ({
  health: healthOf(s),
  failure_streak: s.failure_streak ?? 0,
  last_error: s.last_error ? { status: s.last_error.status, message: s.last_error.message, at: s.last_error.at.toISOString() } : null,
  failing_since: s.failing_since && (s.failure_streak ?? 0) > 0 ? s.failing_since.toISOString() : null,
  last_success_at: s.last_success_at ? s.last_success_at.toISOString() : null,
});

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
} & HealthView;

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
  ...presentHealth(s),
  ...stamps(s),
});

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
} & HealthView;

export const presentAppSubscription = (s: SubscriptionDocument): AppSubscriptionView => ({
  id: s._id.toHexString(),
  store_id: s.store_id.toHexString(),
  target_url: s.target_url,
  event_types: [...s.event_types],
  active: s.active,
  disabled_reason: s.disabled_reason,
  disabled_at: s.disabled_at ? s.disabled_at.toISOString() : null,
  consecutive_failed_deliveries: s.consecutive_failed_deliveries,
  ...presentHealth(s),
  ...stamps(s),
});

/**
 * The subscription in its health events' payloads (`webhook_subscription.failing`, `.disabled`):
 * which endpoint, whose, and its health. Read back by the notices (health-notices.ts).
 */
export const presentHealthEvent = (s: SubscriptionDocument) => ({
  id: s._id.toHexString(),
  target_url: s.target_url,
  owner: { type: s.owner.type, id: s.owner.id.toHexString() },
  active: s.active,
  disabled_reason: s.disabled_reason,
  disabled_at: s.disabled_at ? s.disabled_at.toISOString() : null,
  ...presentHealth(s),
});
