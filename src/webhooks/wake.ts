import type { Platform } from '../platform.js';

/**
 * The fast path after an event is recorded: ask the webhooks service to fan it out and send
 * now. Fire and forget: the fan-out job and the sweeper deliver it anyway if this is lost.
 */
export function wakeWebhooks(platform: Pick<Platform, 'config' | 'log'>, eventId: string | null, deliveryIds: string[] = []): void {
  const secret = platform.config.internalSecret;
  if (!secret) return;
  fetch(`${platform.config.webhooks.internalUrl}/webhook-deliveries/dispatch`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-platform-internal-secret': secret },
    body: JSON.stringify({ ...(eventId ? { event_ids: [eventId] } : {}), ...(deliveryIds.length ? { delivery_ids: deliveryIds } : {}) }),
    signal: AbortSignal.timeout(30_000),
  })
    .then((res) => res.body?.cancel())
    .catch((err: Error) => platform.log.debug({ event: 'webhooks.wake_failed', event_id: eventId, err: err.message }));
}
