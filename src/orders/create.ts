import { ObjectId } from 'mongodb';
import { findVariants } from '../catalog/index.js';
import { couponCustomerKey, evaluateCoupon } from '../coupons/index.js';
import { getCustomer } from '../customers/index.js';
import { PlatformError, invalidInput, type InputIssue } from '../errors.js';
import { activeLocationIds, availableAt, getLocation, type LocationView } from '../inventory/index.js';
import type { Platform } from '../platform.js';
import type { StoreView } from '../stores/index.js';
import { getTaxSettings, rateFor } from '../taxes/index.js';
import { createAndRun, findCreation, keysFor, type Keys } from './changes.js';
import { presentOrder, type OrderView } from './present.js';
import { orderAmountIssues, priceOrder, totalIssues } from './pricing.js';
import type { CreateOrderBody } from './schemas.js';
import { type Effect, type LineItemDocument, type OrderDocument, type RequestRef, type StockEffect } from './models.js';

/**
 * A manual order: the service prices every line from the catalog (custom lines carry the
 * merchant's price), applies the coupon, taxes by the store's rate table and the shipping (or
 * billing) address, and computes the totals. Client totals are never read. Everything is
 * checked before anything is written; then the order is made as one change (changes.ts):
 * the coupon's use and the stock of tracked lines are held, and if any cannot be, nothing is
 * left behind.
 */
export async function createOrder(
  platform: Platform,
  store: StoreView,
  input: CreateOrderBody,
  request: RequestRef | null,
  options: { source?: OrderDocument['source']; taken?: () => PlatformError; paymentSecretHash?: string; paymentMethods?: string[] } = {},
): Promise<OrderView> {
  const storeId = store.id;
  if (request) {
    const made = await findCreation(platform, storeId, request, options.taken);
    if (made) return presentOrder(made);
  }
  const customer = input.customer_id ? await getCustomer(platform, storeId, input.customer_id) : null;
  const location = input.location_id ? await activeLocation(platform, storeId, input.location_id) : null;

  const variantIds = input.line_items.flatMap((l) => ('variant_id' in l ? [l.variant_id] : []));
  const variants = await findVariants(platform, storeId, variantIds);
  const problems: InputIssue[] = [];
  const lines: LineItemDocument[] = input.line_items.map((line, i) => {
    const base = {
      _id: new ObjectId(),
      quantity: line.quantity,
      discount: 0,
      tax: 0,
      total: 0,
      location_id: null,
      fulfilled_quantity: 0,
      refunded_quantity: 0,
    };
    if ('variant_id' in line) {
      const v = variants.get(line.variant_id);
      if (!v) {
        problems.push({ path: `line_items.${i}.variant_id`, message: 'is not a variant of this store' });
        return {
          ...base,
          variant_id: null,
          product_id: null,
          title: '',
          variant_title: null,
          sku: null,
          unit_price: 0,
          taxable: false,
          inventory_tracked: false,
        };
      }
      return {
        ...base,
        variant_id: new ObjectId(v.variant_id),
        product_id: new ObjectId(v.product_id),
        title: v.product_title,
        variant_title: v.variant_title === 'Default' ? null : v.variant_title,
        sku: v.sku,
        unit_price: v.price,
        taxable: true,
        inventory_tracked: v.inventory_tracked,
        inventory_policy: v.inventory_policy,
      };
    }
    return {
      ...base,
      variant_id: null,
      product_id: null,
      title: line.title,
      variant_title: null,
      sku: line.sku,
      unit_price: line.price,
      taxable: line.taxable,
      inventory_tracked: false,
    };
  });
  if (problems.length > 0) throw invalidInput(problems);
  const amountProblems = orderAmountIssues(lines);
  if (amountProblems.length > 0) throw invalidInput(amountProblems);

  const subtotal = lines.reduce((a, l) => a + l.unit_price * l.quantity, 0);
  const shippingPrice = input.shipping_line?.price ?? null;
  const email = input.email ?? customer?.email ?? null;
  let coupon: { id: string; code: string; discount: { subtotal: number; shipping: number } } | null = null;
  if (input.coupon_code) {
    const evaluation = await evaluateCoupon(platform, storeId, input.coupon_code, {
      subtotal,
      shipping: shippingPrice ?? 0,
      currency: store.currency,
      ...(customer ? { customer_id: customer.id } : {}),
      ...(email ? { customer_email: email } : {}),
      redeeming: true,
    });
    if (!evaluation.applicable) {
      throw invalidInput(
        [{ path: 'coupon_code', message: evaluation.reason }],
        'coupon_not_applicable',
        `The coupon cannot be used on this order: ${evaluation.reason}`,
      );
    }
    coupon = { id: evaluation.coupon.id, code: evaluation.coupon.code, discount: evaluation.discount };
  }

  const taxes = await getTaxSettings(platform, storeId);
  const address = input.shipping_address ?? input.billing_address ?? null;
  const rate = rateFor(taxes, address);
  const pricing = priceOrder({
    lines,
    shipping: shippingPrice,
    discount: coupon?.discount ?? { subtotal: 0, shipping: 0 },
    rateBps: rate.rate_bps,
    shippingTaxable: taxes.shipping_taxable,
  });
  const totalProblems = totalIssues(pricing);
  if (totalProblems.length > 0) throw invalidInput(totalProblems);
  pricing.lines.forEach((p, i) => Object.assign(lines[i]!, p));

  const id = new ObjectId();
  const changeId = new ObjectId().toHexString();
  const keys = keysFor(changeId);
  const holds: Effect[] = coupon
    ? [{ type: 'coupon', key: keys(), coupon_id: new ObjectId(coupon.id), customer_key: couponCustomerKey({ customer_id: customer?.id, email }) }]
    : [];
  holds.push(...(await planCommitments(platform, storeId, lines, location, keys)));
  const paid = input.financial_status === 'paid';
  const effects: Effect[] = [];
  if (customer) effects.push({ type: 'customer', key: keys(), customer_id: new ObjectId(customer.id), amount: paid ? pricing.total : 0, count: 1 });
  if (paid && pricing.total > 0) effects.push({ type: 'payment', transaction_id: new ObjectId(), kind: 'sale', amount: pricing.total });

  const now = platform.clock.now();
  const doc: Omit<OrderDocument, 'pending_op' | 'lease_until' | 'lease_owner' | 'pending_since'> = {
    _id: id,
    store_id: new ObjectId(storeId),
    // Until the order is made it holds a placeholder, unique by its id: numbers go only to orders that are made.
    number: -Number.parseInt(id.toHexString().slice(12), 16),
    customer_id: customer ? new ObjectId(customer.id) : null,
    email,
    currency: store.currency,
    line_items: lines,
    shipping_line: input.shipping_line
      ? { ...input.shipping_line, code: input.shipping_line.code ?? null, discount: pricing.shipping!.discount, tax: pricing.shipping!.tax }
      : null,
    shipping_address: input.shipping_address ?? null,
    billing_address: input.billing_address ?? null,
    coupon: coupon ? { id: coupon.id, code: coupon.code, discount: pricing.discount_total } : null,
    tax_rate: { name: rate.name, rate_bps: rate.rate_bps },
    subtotal: pricing.subtotal,
    discount_total: pricing.discount_total,
    shipping_total: pricing.shipping_total,
    tax_total: pricing.tax_total,
    total: pricing.total,
    paid_amount: paid ? pricing.total : 0,
    refunded_amount: 0,
    financial_status: paid ? 'paid' : 'pending',
    fulfillment_status: 'unfulfilled',
    fulfillments: [],
    refunds: [],
    cancelled_at: null,
    cancel_reason: null,
    note: input.note ?? null,
    source: options.source ?? 'admin',
    payment_methods: options.paymentMethods ?? null,
    version: 1,
    creating: true,
    requests: request ? [request] : [],
    request_key: request?.id ?? id.toHexString(),
    payment_secret_hash: options.paymentSecretHash ?? null,
    created_at: now,
    updated_at: now,
  };
  return presentOrder(await createAndRun(platform, doc, { kind: 'create', set: {}, holds, effects, subject_id: null }, changeId, request, options.taken));
}

export async function activeLocation(platform: Platform, storeId: string, locationId: string): Promise<LocationView> {
  const location = await getLocation(platform, storeId, locationId);
  if (!location.active) throw new PlatformError('conflict', 'location_inactive', 'The location is deactivated');
  return location;
}

/**
 * Where each tracked line commits its units: the location given, else the first active location
 * (oldest first) with enough for sale (all the order's lines of a variant counted together).
 * A line no location can hold is refused here (409 insufficient_stock), unless its variant
 * allows backorders: it then commits at the first location, going below zero, or nowhere if the
 * store has no active location. The commitment itself is the conditional write that decides.
 */
async function planCommitments(
  platform: Platform,
  storeId: string,
  lines: LineItemDocument[],
  location: LocationView | null,
  keys: Keys,
): Promise<StockEffect[]> {
  const tracked = lines.map((line, i) => ({ line, i })).filter(({ line }) => line.variant_id && line.inventory_tracked);
  if (tracked.length === 0) return [];
  const candidates = location ? [location.id] : await activeLocationIds(platform, storeId);
  const stock =
    candidates.length > 1
      ? await availableAt(
          platform,
          storeId,
          tracked.map(({ line }) => line.variant_id!.toHexString()),
          candidates,
        )
      : null;
  const planned = new Map<string, number>();
  const left = (variant: string, at: string) => (stock?.get(variant)?.get(at) ?? 0) - (planned.get(`${variant}|${at}`) ?? 0);
  const problems: string[] = [];
  const holds: StockEffect[] = [];
  for (const { line, i } of tracked) {
    const variant = line.variant_id!.toHexString();
    const deny = line.inventory_policy !== 'continue';
    const at = stock ? (candidates.find((c) => left(variant, c) >= line.quantity) ?? (deny ? undefined : candidates[0])) : candidates[0];
    if (!at) {
      if (deny) problems.push(`line_items.${i}: ${line.quantity} requested, ${Math.max(0, ...candidates.map((c) => left(variant, c)))} available`);
      continue;
    }
    planned.set(`${variant}|${at}`, (planned.get(`${variant}|${at}`) ?? 0) + line.quantity);
    line.location_id = new ObjectId(at);
    holds.push({
      type: 'stock',
      key: keys(),
      line: i,
      variant_id: line.variant_id!,
      product_id: line.product_id!,
      location_id: line.location_id,
      available: -line.quantity,
      committed: line.quantity,
      floor: deny,
      reason: 'order_reserved',
    });
  }
  if (problems.length > 0) throw new PlatformError('conflict', 'insufficient_stock', 'Not enough stock for this order', { details: problems });
  return holds;
}

/**
 * The order made under a request's id, once any change left on it is finished, and whether this
 * request made it (`same`: the same hash) or another one with that id (a storefront checkout's
 * id names its cart); null when none.
 */
