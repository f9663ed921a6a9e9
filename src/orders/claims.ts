import { ObjectId } from 'mongodb';
import { PlatformError } from '../errors.js';
import type { GuestOrderLinks } from '../customers/index.js';
import type { Platform } from '../platform.js';
import { changeOrder } from './changes.js';
import { orders } from './models.js';

/**
 * A guest's orders become their customer's once the customer proves the email (docs/orders.md,
 * "Guest orders claimed"): account activation, an accepted invite, a password reset by emailed
 * link. Each order of the store with that email and no customer is claimed by an order change
 * of its own (kind `claim`): the order's customer_id set under its lease, then the customer's
 * orders_count and total_spent counted by the change's customer step (keyed, so a repeat counts
 * nothing twice; the orders repair sweep finishes one a crash left), then `order.updated`
 * (`changed: ["customer_id"]`). A bare sign-up proves nothing and claims nothing.
 */

/** Orders claimed in one proof: a guest rarely has more; the rest wait for the next proof. */
const CLAIM_BATCH = 200;

const guestFilter = (storeId: string, email: string) => ({
  store_id: new ObjectId(storeId),
  email,
  customer_id: null,
  creating: { $ne: true },
});

/** Whether the store has an order of this email without a customer (a sign-up for it then asks for proof). */
export async function hasGuestOrders(platform: Pick<Platform, 'db'>, storeId: string, email: string): Promise<boolean> {
  return (await orders(platform.db).countDocuments(guestFilter(storeId, email), { limit: 1 })) > 0;
}

/** The store's guest orders of `email` become the customer's; answers how many this call claimed. */
export async function claimGuestOrders(platform: Platform, storeId: string, customerId: string, email: string): Promise<number> {
  const found = await orders(platform.db)
    .find(guestFilter(storeId, email), { projection: { _id: 1 } })
    .sort({ _id: 1 })
    .limit(CLAIM_BATCH)
    .toArray();
  const customer = new ObjectId(customerId);
  let claimed = 0;
  for (const { _id } of found) {
    try {
      await changeOrder(platform, storeId, _id.toHexString(), null, async (order, keys) => {
        // Claimed by another proof meanwhile, or changed to another email: nothing to do.
        if (order.customer_id !== null || order.email !== email) throw notClaimable();
        const net = order.paid_amount - order.refunded_amount;
        return {
          kind: 'claim',
          set: { customer_id: customer },
          holds: [],
          effects: [{ type: 'customer', key: keys(), customer_id: customer, amount: net, count: 1 }],
          subject_id: null,
        };
      });
      claimed++;
    } catch (err) {
      if (!(err instanceof NotClaimable || (err instanceof PlatformError && err.kind === 'not_found'))) throw err;
    }
  }
  if (claimed > 0) platform.log.info({ event: 'orders.guest_orders_claimed', store_id: storeId, customer_id: customerId, orders: claimed });
  return claimed;
}

/** Thrown by a claim's plan when the order is no longer a guest order of the email: it is skipped, nothing written. */
class NotClaimable extends Error {}
const notClaimable = () => new NotClaimable('The order has a customer or another email now');

/** The links the customers domain is given (src/modules.ts, the shop). */
export const guestOrderLinks: GuestOrderLinks = { known: hasGuestOrders, claim: claimGuestOrders };
