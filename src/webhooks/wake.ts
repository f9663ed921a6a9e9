import type { Platform } from '../platform.js';
import { enqueueFanOut } from './jobs.js';

type WakeDeps = Pick<Platform, 'config' | 'log'>;

/**
 * Ask the webhooks service to fan out the given event and send now, or to send the given
 * deliveries now. Resolves true when the service answered 2xx, i.e. it has done so; false
 * when there is no internal secret (poll-only), the service is unreachable, or it failed.
 */
export async function wakeWebhooks(platform: WakeDeps, eventId: string | null, deliveryIds: string[] = [], signal?: AbortSignal): Promise<boolean> {
  const secret = platform.config.internalSecret;
  if (!secret) return false;
  try {
    const res = await fetch(`${platform.config.webhooks.internalUrl}/webhook-deliveries/dispatch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-platform-internal-secret': secret },
      body: JSON.stringify({ ...(eventId ? { event_ids: [eventId] } : {}), ...(deliveryIds.length ? { delivery_ids: deliveryIds } : {}) }),
      signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(30_000)]) : AbortSignal.timeout(30_000),
    });
    await res.body?.cancel();
    return res.ok;
  } catch (err) {
    platform.log.debug({ event: 'webhooks.wake_failed', event_id: eventId, err: (err as Error).message });
    return false;
  }
}

/**
 * What the web process does after it records an event, off the request's path: wake the
 * webhooks service, which fans the event out and sends at once; when that is not confirmed
 * (poll-only, service down or restarting, an error), enqueue the durable fan-out job instead.
 * The job is thus the fallback, not a second copy of every fan-out: each Agenda job costs a
 * lock, a save and a removal, and the lock query reads the whole queue on the embedded
 * database. If this process dies before either happens, the sweeper finds the event (it is
 * recorded with no `fanned_out_at`).
 */
export function announceEvents(deps: Pick<Platform, 'config' | 'log' | 'jobs'>) {
  const pending = new Set<Promise<void>>();
  const shutdown = new AbortController();
  return {
    announce(eventId: string): void {
      const work = (async () => {
        if (await wakeWebhooks(deps, eventId, [], shutdown.signal)) return;
        await enqueueFanOut(deps, eventId);
      })()
        .catch((err: Error) => deps.log.error({ event: 'webhooks.announce_failed', event_id: eventId, err: err.message }))
        .finally(() => pending.delete(work));
      pending.add(work);
    },
    /** On shutdown: stop waiting for wake-ups and enqueue the jobs of those not confirmed. */
    async drain(): Promise<void> {
      shutdown.abort();
      await Promise.all([...pending]);
    },
  };
}
