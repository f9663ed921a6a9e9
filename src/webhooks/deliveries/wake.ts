import type { Platform } from '../../platform.js';
import { FanOutEvent } from './fan-out.js';

type WakeDeps = Pick<Platform, 'config' | 'log'>;

/**
 * The internal routes a wake-up goes to (spec 4.9): an app installation's lifecycle and
 * compliance events (addressed events) to `/app-lifecycle/dispatch`, every other event and
 * redeliveries to `/webhook-deliveries/dispatch`.
 */
export type WakeRoute = 'deliveries' | 'app_lifecycle';
const WAKE_PATHS: Record<WakeRoute, string> = { deliveries: '/webhook-deliveries/dispatch', app_lifecycle: '/app-lifecycle/dispatch' };

/** Events one wake-up names at most (the dispatch route's limit). */
export const WAKE_BATCH = 500;
/** Wake-ups a process has in flight at once; events announced meanwhile wait and go together. */
const WAKES_IN_FLIGHT = 2;

/**
 * Ask the webhooks service to fan out the given events and send them, or to send the given
 * deliveries. Resolves true when the service answered 2xx, i.e. the events are fanned out and
 * the deliveries claimed by it; false when there is no internal secret (poll-only), the service
 * is unreachable, or it failed.
 */
export async function wakeWebhooks(
  platform: WakeDeps,
  eventIds: readonly string[],
  deliveryIds: readonly string[] = [],
  signal?: AbortSignal,
  route: WakeRoute = 'deliveries',
): Promise<boolean> {
  const secret = platform.config.internalSecret;
  if (!secret) return false;
  try {
    const res = await fetch(`${platform.config.webhooks.internalUrl}${WAKE_PATHS[route]}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-platform-internal-secret': secret },
      body: JSON.stringify({ ...(eventIds.length ? { event_ids: eventIds } : {}), ...(deliveryIds.length ? { delivery_ids: deliveryIds } : {}) }),
      signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(30_000)]) : AbortSignal.timeout(30_000),
    });
    await res.body?.cancel();
    return res.ok;
  } catch (err) {
    platform.log.debug({ event: 'webhooks.wake_failed', event_ids: eventIds, err: (err as Error).message });
    return false;
  }
}

/**
 * What the web process does after it records an event, off the request's path: wake the
 * webhooks service, which fans the event out and sends at once; when that is not confirmed
 * (poll-only, service down or restarting, an error), enqueue the durable fan-out job instead.
 * The job is thus the fallback, not a second copy of every fan-out: each Agenda job costs a
 * lock, a save and a removal. If this process dies before either happens, the sweeper finds
 * the event (it is recorded with no `fanned_out_at`).
 *
 * Wake-ups are coalesced: at most WAKES_IN_FLIGHT at once, and the events announced while
 * they are out go together in the next one (up to WAKE_BATCH), so a quiet store's event
 * leaves at once and a burst costs a few requests and a few database commands, not several
 * per event.
 */
export function announceEvents(deps: Pick<Platform, 'config' | 'log' | 'jobs'>) {
  const waiting: Record<WakeRoute, string[]> = { deliveries: [], app_lifecycle: [] };
  const inFlight = new Set<Promise<void>>();
  const shutdown = new AbortController();
  const pump = () => {
    for (const route of ['app_lifecycle', 'deliveries'] as const) {
      const queue = waiting[route];
      while (inFlight.size < WAKES_IN_FLIGHT && queue.length > 0) {
        const batch = queue.splice(0, WAKE_BATCH);
        const work: Promise<void> = (async () => {
          if (await wakeWebhooks(deps, batch, [], shutdown.signal, route)) return;
          for (const eventId of batch) {
            await deps.jobs
              .enqueue(FanOutEvent, { event_id: eventId })
              .catch((err: Error) => deps.log.error({ event: 'webhooks.announce_failed', event_id: eventId, err: err.message }));
          }
        })().finally(() => {
          inFlight.delete(work);
          pump();
        });
        inFlight.add(work);
      }
    }
  };
  return {
    /** An event was recorded that a subscription wants: `addressed` when it is for one app installation. */
    announce(eventId: string, addressed = false): void {
      waiting[addressed ? 'app_lifecycle' : 'deliveries'].push(eventId);
      pump();
    },
    /** On shutdown: stop waiting for wake-ups and enqueue the jobs of the events not confirmed. */
    async drain(): Promise<void> {
      shutdown.abort();
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}
