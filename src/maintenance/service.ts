import { sendDueShopRedactions, sweepExpiredOAuth } from '../apps/index.js';
import { sweepExpiredCredentials } from '../auth/index.js';
import { sweepExpiredCustomerCredentials } from '../customers/index.js';
import { sweepExpiredIdempotencyRecords } from '../http/idempotency/index.js';
import { redispatchStrandedMessages, sweepExpiredMessages } from '../messages/index.js';
import { repairOrders } from '../orders/index.js';
import type { Platform } from '../platform.js';
import { sweepExpiredRateLimits } from '../ratelimit/index.js';
import { finishStrandedCheckouts, sweepExpiredCarts } from '../storefront/index.js';
import { sweepExpiredPreviewSessions } from '../themes/index.js';

/**
 * Housekeeping. Expiry is a field checked in code and enforced by these sweeps, because
 * FerretDB has no TTL indexes (and correctness must not depend on them anyway): every read
 * of a session, code or token already ignores expired documents; sweeps only reclaim space.
 * `repair-orders` finishes (or undoes) order changes whose process stopped between two writes
 * (docs/orders.md, "Changes that span documents"); `finish-checkouts` consumes (or gives back) a
 * cart whose checkout stopped while holding it (docs/storefront.md, Checkout); `settle-events` records events a process
 * left pending (docs/events.md, "Every committed change, once"); `app-shop-redact` sends an
 * uninstalled app `shop.redact` once APP_SHOP_REDACT_DELAY_SECONDS have passed (docs/apps.md).
 */
/** Events a process left on their documents (or delete intents) when it stopped between write and record. */
const settleEvents = (platform: Platform) => platform.events.settleLeftBehind(new Date(platform.clock.now().getTime() - platform.config.events.settleAfterMs));

/** Merchants' and storefront customers' expired sessions, codes and reset tokens. */
const sweepAllExpiredCredentials = async (platform: Platform) => (await sweepExpiredCredentials(platform)) + (await sweepExpiredCustomerCredentials(platform));

export const SWEEPS = {
  'maintenance.sweep-expired-credentials': sweepAllExpiredCredentials,
  'maintenance.sweep-idempotency-records': sweepExpiredIdempotencyRecords,
  'maintenance.sweep-rate-limits': sweepExpiredRateLimits,
  'maintenance.sweep-outbound-messages': sweepExpiredMessages,
  'maintenance.redispatch-stranded-messages': redispatchStrandedMessages,
  'maintenance.repair-orders': repairOrders,
  // After repair-orders: a checkout's order is finished first, then its cart.
  'maintenance.finish-checkouts': finishStrandedCheckouts,
  'maintenance.settle-events': settleEvents,
  'maintenance.sweep-oauth': sweepExpiredOAuth,
  'maintenance.sweep-carts': sweepExpiredCarts,
  'maintenance.app-shop-redact': sendDueShopRedactions,
  'maintenance.sweep-theme-previews': sweepExpiredPreviewSessions,
} as const satisfies Record<string, (platform: Platform) => Promise<number>>;

export type SweepName = keyof typeof SWEEPS;
