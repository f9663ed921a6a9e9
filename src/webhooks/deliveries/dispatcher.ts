import type { Platform } from '../../platform.js';
import { releaseLeases } from '../../work/lease.js';
import { deliveries } from './models.js';
import { claimDelivery, sendClaimed, type ClaimedDelivery } from './delivery.js';

/**
 * The webhooks service's sender: deliveries this process holds (created claimed by a fan-out,
 * or claimed by id) wait here for one of `concurrency` send slots, shared by every wake-up, so
 * a burst of wake-ups never means a burst of connections to the receivers, and a slow receiver
 * holds a slot, not the wake-up that named it.
 *
 * A held delivery whose lease runs low while it waits has it extended before the send (see
 * sendClaimed); if the process stops, `close` stops sending, waits for the sends in flight and
 * gives the leases of those not sent back, so any worker's sweep sends them at once.
 */
export type Dispatcher = {
  /** Queue deliveries this process holds the lease on. */
  hold(claimed: readonly ClaimedDelivery[]): void;
  /** Claim the given deliveries (those due and not leased) and queue them; resolves to how many it claimed. */
  claim(deliveryIds: readonly string[]): Promise<number>;
  /** Deliveries queued or being sent. */
  readonly pending: number;
  close(): Promise<void>;
};

/** Sends done whose attempts are not recorded yet, at most (then sending waits for the database). */
const UNRECORDED_MAX = 256;

export function createDispatcher(platform: Platform, owner: string, concurrency = 8): Dispatcher {
  const queue: ClaimedDelivery[] = [];
  /** Every delivery taken from the queue and not yet recorded (for close). */
  const running = new Set<Promise<void>>();
  /** Of those, the ones whose send is in flight: a send slot is free once the receiver answered. */
  let sending = 0;
  let closed = false;

  const pump = () => {
    while (!closed && sending < concurrency && running.size < UNRECORDED_MAX && queue.length > 0) {
      const claimed = queue.shift()!;
      sending++;
      let slotHeld = true;
      const freeSlot = () => {
        if (!slotHeld) return;
        slotHeld = false;
        sending--;
        pump();
      };
      const send: Promise<void> = sendClaimed(platform, claimed, owner, freeSlot)
        .then(() => undefined)
        .catch((err: Error) => {
          // The lease runs out and the sweeper sends it again: nothing is lost.
          platform.log.error({ event: 'webhook.send_error', delivery_id: claimed.delivery._id.toHexString(), err: err.message });
        })
        .finally(() => {
          running.delete(send);
          freeSlot();
          pump();
        });
      running.add(send);
    }
  };

  return {
    hold(claimed) {
      queue.push(...claimed);
      pump();
    },
    async claim(deliveryIds) {
      let count = 0;
      for (const id of deliveryIds) {
        const delivery = await claimDelivery(platform, owner, id);
        if (!delivery) continue;
        count++;
        queue.push({ delivery });
        pump();
      }
      return count;
    },
    get pending() {
      return queue.length + running.size;
    },
    async close() {
      closed = true;
      const unsent = queue.splice(0);
      if (unsent.length > 0) {
        const now = platform.clock.now();
        // Each on the exact lease held (one bulk write): one that ran out and was claimed again is not touched.
        await releaseLeases(
          deliveries(platform.db),
          unsent.map(({ delivery }) => delivery),
          owner,
          { filter: { status: 'queued' }, set: { updated_at: now } },
        );
        platform.log.info({ event: 'webhooks.dispatcher_released', deliveries: unsent.length });
      }
      await Promise.all([...running]);
    },
  };
}
