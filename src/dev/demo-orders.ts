import type { Clock } from '../clock.js';
import { countCustomers, createCustomer, CreateCustomerBody } from '../customers/index.js';
import { countOrders, createOrder, CreateOrderBody, fulfillOrder, FulfillBody, refundOrder, RefundBody } from '../orders/index.js';
import type { Platform } from '../platform.js';
import { findStoreById } from '../stores/index.js';

/**
 * The demo store's customers and orders (`npm run demo`), so the merchant admin has something to
 * show: six customers and fourteen orders over the last 30 days, most paid, some fulfilled with a
 * tracking number, two awaiting payment, one refunded with its units restocked. They are made by
 * the orders' and customers' own services (what the API calls), so every derived figure is theirs:
 * stock committed and released, the customers' order counts and totals, the orders' states.
 *
 * The past is the demo's clock set back (`DemoClock`), not dates written afterwards. The services
 * are called in process rather than over HTTP because the API's request budget is kept by the same
 * clock, and a clock going back would owe it weeks.
 *
 * Made once per store: a store that has orders keeps them (the catalogue reset of a second run
 * leaves the orders' lines as they were sold).
 */

/** The system's clock, set back by a number of days while the demo makes an order of the past. */
export class DemoClock implements Clock {
  private backMs = 0;
  now(): Date {
    return new Date(Date.now() - this.backMs);
  }
  /** `days` ago (fractions allowed); 0 is now. */
  goTo(days: number): void {
    this.backMs = Math.round(days * 24 * 60 * 60 * 1000);
  }
}

/** A variant the demo may sell: its id and stock after the catalogue was made. */
export type SellableVariant = { variantId: string; stock: number };

const CUSTOMERS = [
  { first_name: 'Amara', last_name: 'Okafor', city: 'Austin', province_code: 'TX', zip: '78701', address1: '410 Congress Ave' },
  { first_name: 'Jonas', last_name: 'Lindqvist', city: 'Seattle', province_code: 'WA', zip: '98101', address1: '1201 3rd Ave' },
  { first_name: 'Priya', last_name: 'Raman', city: 'Chicago', province_code: 'IL', zip: '60601', address1: '233 S Wacker Dr' },
  { first_name: 'Mateo', last_name: 'García', city: 'Miami', province_code: 'FL', zip: '33131', address1: '801 Brickell Ave' },
  { first_name: 'Hana', last_name: 'Sato', city: 'Portland', province_code: 'OR', zip: '97205', address1: '1120 SW 5th Ave' },
  { first_name: 'Olivia', last_name: 'Brennan', city: 'Boston', province_code: 'MA', zip: '02110', address1: '1 Federal St' },
] as const;

type Fate = 'pending' | 'paid' | 'fulfilled' | 'refunded';
/** The orders, oldest first: days ago, the customer, how many lines, and what became of it. */
const ORDERS: readonly { daysAgo: number; customer: number; lines: number; fate: Fate }[] = [
  { daysAgo: 29.4, customer: 0, lines: 2, fate: 'fulfilled' },
  { daysAgo: 26.1, customer: 1, lines: 1, fate: 'fulfilled' },
  { daysAgo: 23.7, customer: 2, lines: 3, fate: 'refunded' },
  { daysAgo: 21.2, customer: 3, lines: 1, fate: 'fulfilled' },
  { daysAgo: 18.5, customer: 0, lines: 1, fate: 'fulfilled' },
  { daysAgo: 15.9, customer: 4, lines: 2, fate: 'fulfilled' },
  { daysAgo: 13.3, customer: 5, lines: 1, fate: 'paid' },
  { daysAgo: 10.8, customer: 1, lines: 2, fate: 'fulfilled' },
  { daysAgo: 8.2, customer: 2, lines: 1, fate: 'paid' },
  { daysAgo: 6.6, customer: 3, lines: 2, fate: 'pending' },
  { daysAgo: 4.1, customer: 4, lines: 1, fate: 'paid' },
  { daysAgo: 2.5, customer: 0, lines: 2, fate: 'paid' },
  { daysAgo: 1.2, customer: 5, lines: 1, fate: 'pending' },
  { daysAgo: 0.1, customer: 1, lines: 3, fate: 'paid' },
];

export async function fillDemoOrders(
  platform: Platform,
  input: { storeId: string; locationId: string; variants: readonly SellableVariant[]; clock: DemoClock },
  log: (line: string) => void = () => {},
): Promise<{ customers: number; orders: number }> {
  const { storeId, locationId, clock } = input;
  const store = await findStoreById(platform, storeId);
  if (!store) throw new Error(`the demo store ${storeId} is gone`);
  if ((await countOrders(platform, storeId)) > 0) {
    log('the store has orders already: keeping them');
    return { customers: await countCustomers(platform, storeId), orders: await countOrders(platform, storeId) };
  }
  // Variants with room to sell a few units and stay in stock (the shop's sold-out ones stay so).
  const sellable = input.variants.filter((v) => v.stock >= 6);
  let next = 0;
  const customerIds = new Map<number, string>();
  try {
    for (const [n, o] of ORDERS.entries()) {
      clock.goTo(o.daysAgo);
      const who = CUSTOMERS[o.customer]!;
      const email = `${who.first_name}.${who.last_name}@example.com`
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase();
      let customerId = customerIds.get(o.customer);
      if (!customerId) {
        const created = await createCustomer(
          platform,
          store,
          CreateCustomerBody.parse({ email, first_name: who.first_name, last_name: who.last_name, accepts_marketing: o.customer % 2 === 0 }),
        );
        customerIds.set(o.customer, (customerId = created.id));
      }
      const address = {
        first_name: who.first_name,
        last_name: who.last_name,
        address1: who.address1,
        city: who.city,
        province_code: who.province_code,
        zip: who.zip,
        country_code: 'US',
      };
      const order = await createOrder(
        platform,
        store,
        CreateOrderBody.parse({
          customer_id: customerId,
          line_items: Array.from({ length: o.lines }, (_, i) => ({
            variant_id: sellable[(next + i) % sellable.length]!.variantId,
            quantity: 1 + ((n + i) % 2),
          })),
          shipping_line: { title: 'Standard (3–5 days)', code: 'standard', price: 495 },
          shipping_address: address,
          billing_address: address,
          financial_status: o.fate === 'pending' ? 'pending' : 'paid',
          location_id: locationId,
        }),
        null,
      );
      next += o.lines;
      if (o.fate === 'fulfilled' || o.fate === 'refunded') {
        clock.goTo(o.daysAgo - 0.8);
        const body = FulfillBody.parse({
          location_id: locationId,
          line_items: order.line_items.map((l) => ({ line_item_id: l.id, quantity: l.quantity })),
          tracking_company: 'UPS',
          tracking_number: `1Z999AA1${String(n + 1).padStart(10, '0')}`,
          tracking_url: 'https://www.ups.com/track',
        });
        await fulfillOrder(platform, storeId, order.id, body, null);
      }
      if (o.fate === 'refunded') {
        // A return: the first line comes back and its units go back on the shelf.
        clock.goTo(o.daysAgo - 2);
        const line = order.line_items[0]!;
        const body = RefundBody.parse({
          line_items: [{ line_item_id: line.id, quantity: line.quantity }],
          reason: 'Returned: the colour was not what the customer expected',
          restock: true,
          location_id: locationId,
        });
        await refundOrder(platform, storeId, order.id, body, null);
      }
    }
  } finally {
    clock.goTo(0);
  }
  log(`made ${customerIds.size} customers and ${ORDERS.length} orders over the last 30 days`);
  return { customers: customerIds.size, orders: ORDERS.length };
}
