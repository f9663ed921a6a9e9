import { z } from 'zod';
import { routes } from '../../http/endpoint.js';
import { IdString } from '../../ids.js';
import type { InternalRoutes } from '../../module.js';
import type { Platform } from '../../platform.js';
import { loadEventsNotFannedOut } from '../../events/index.js';
import { dispatchDue } from './delivery.js';
import { fanOutEvents } from './fan-out.js';
import { createDispatcher } from './dispatcher.js';
import { WAKE_BATCH } from './wake.js';

const DispatchBody = z.strictObject({
  delivery_ids: z.array(IdString()).max(WAKE_BATCH).optional(),
  event_ids: z.array(IdString()).max(WAKE_BATCH).optional(),
});
const LifecycleBody = z.strictObject({ event_ids: z.array(IdString()).min(1).max(WAKE_BATCH) });

/**
 * The webhooks domain's routes on the internal service (spec 4.9, behind the internal secret):
 * - POST /webhook-deliveries/dispatch with `event_ids` and/or `delivery_ids`: fan out the given
 *   events and claim the given deliveries, hand them to the process's dispatcher (which sends
 *   them, `concurrency` at a time, after the answer) and answer how many; with neither, claim
 *   and send any due deliveries now and answer what happened to them;
 * - POST /app-lifecycle/dispatch with `event_ids`: the same for events addressed to an app
 *   installation (its lifecycle, compliance notices; docs/apps.md, App webhooks): how the web
 *   process hands them over. Events that are not addressed to an installation are not
 *   dispatched here (`skipped`); the sweeper still finds anything this misses.
 * Deliveries are leased to this process (`platform.process.id`).
 */
export function webhookInternalRoutes(platform: Platform): InternalRoutes {
  const owner = platform.process.id;
  const dispatcher = createDispatcher(platform, owner);
  const on = routes(platform);

  on.post('/webhook-deliveries/dispatch', { access: 'public', body: DispatchBody }, async ({ body }) => {
    if (!body.event_ids && !body.delivery_ids) return { fanned_out: 0, ...(await dispatchDue(platform, owner)) };
    // Answered once the events are fanned out and the deliveries claimed (the state the
    // sweeper would otherwise recover), not when they are sent: one slow receiver must not
    // hold up the wake-ups of other stores' events.
    const created = await fanOutEvents(platform, body.event_ids ?? [], owner);
    dispatcher.hold(created);
    const claimed = await dispatcher.claim(body.delivery_ids ?? []);
    return { fanned_out: created.length, claimed: created.length + claimed, sending: dispatcher.pending };
  });
  on.post('/app-lifecycle/dispatch', { access: 'public', body: LifecycleBody }, async ({ body }) => {
    const pending = await loadEventsNotFannedOut(platform.db, body.event_ids);
    const addressed = pending.filter((e) => e.recipient !== null).map((e) => e.id);
    const created = await fanOutEvents(platform, addressed, owner);
    dispatcher.hold(created);
    return { events: addressed.length, skipped: body.event_ids.length - addressed.length, claimed: created.length, sending: dispatcher.pending };
  });

  return { router: on.router, close: () => dispatcher.close() };
}
