import { ObjectId } from 'mongodb';
import { z } from 'zod';
import type { Platform } from '../platform.js';
import { CountryCode, SubdivisionCode } from '../postal-address.js';
import { replaceStoreSettings } from '../store-settings.js';
import { shippingSettings, type ShippingRate, type ShippingSettingsDocument } from './models.js';

/** The most a rate or a subtotal bound may be, in minor units (the orders domain's order amount bound). */
const MAX_AMOUNT = 100_000_000_000;
const Amount = z.number().int('must be an integer amount in minor units').min(0).max(MAX_AMOUNT);
/** An option's code: what the checkout names (`shipping_option`) and Checkout Functions advise on. */
export const ShippingCode = z
  .string()
  .regex(/^[a-z0-9]+(?:[-_][a-z0-9]+)*$/, 'must be lowercase letters and digits, with - or _ between')
  .max(60);

const Rate = z
  .strictObject({
    code: ShippingCode,
    name: z.string().trim().min(1).max(100),
    price: Amount,
    country_code: z.union([z.literal('*'), CountryCode]),
    province_code: SubdivisionCode.nullable().default(null),
    min_subtotal: Amount.nullable().default(null),
    max_subtotal: Amount.nullable().default(null),
  })
  .superRefine((r, ctx) => {
    if (r.country_code === '*' && r.province_code !== null)
      ctx.addIssue({ code: 'custom', path: ['province_code'], message: 'must be null for every country (*)' });
    if (r.min_subtotal !== null && r.max_subtotal !== null && r.min_subtotal > r.max_subtotal)
      ctx.addIssue({ code: 'custom', path: ['max_subtotal'], message: 'must be at least min_subtotal' });
  });

/** At most this many rows in a store's table. */
export const MAX_SHIPPING_RATES = 500;

/** PUT /v1/shipping: the whole table. One row per option code and destination. */
export const ShippingSettingsBody = z.strictObject({ rates: z.array(Rate).max(MAX_SHIPPING_RATES) }).superRefine((b, ctx) => {
  const seen = new Set<string>();
  b.rates.forEach((r, i) => {
    const key = `${r.code} to ${r.country_code}${r.province_code ? `/${r.province_code}` : ''}`;
    if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['rates', i], message: `another rate already covers ${key}` });
    seen.add(key);
  });
});
export type ShippingSettingsBody = z.infer<typeof ShippingSettingsBody>;

export type ShippingSettingsView = { rates: ShippingRate[]; updated_at: string | null };

const present = (d: ShippingSettingsDocument | null): ShippingSettingsView =>
  d ? { rates: d.rates, updated_at: d.updated_at.toISOString() } : { rates: [], updated_at: null };

export async function getShippingSettings(platform: Pick<Platform, 'db'>, storeId: string): Promise<ShippingSettingsView> {
  return present(await shippingSettings(platform.db).findOne({ store_id: new ObjectId(storeId) }));
}

/** Replace the store's shipping rate table (the whole table, like the tax table). */
export function putShippingSettings(platform: Platform, storeId: string, input: ShippingSettingsBody): Promise<ShippingSettingsView> {
  return replaceStoreSettings(platform, storeId, {
    collection: shippingSettings(platform.db),
    set: { rates: input.rates },
    present,
    event: 'shipping_settings.updated',
    payloadKey: 'shipping_settings',
    what: 'The shipping settings',
  });
}

/** A shipping option the checkout offers: the rate's code, name and price. */
export type ShippingOption = { code: string; name: string; price: number };

/**
 * The options for an address and a cart subtotal (docs/shipping.md, Which options a checkout
 * offers): for each code, the most specific row for the address (its province, else its
 * country, else `*` when no row of the table names the country at all), kept when the subtotal
 * is within the row's bounds. Cheapest first, then by name and code.
 */
export function shippingOptionsFor(
  settings: Pick<ShippingSettingsView, 'rates'>,
  address: { country_code: string; province_code: string | null },
  subtotal: number,
): ShippingOption[] {
  const namesCountry = settings.rates.some((r) => r.country_code === address.country_code);
  const rank = (r: ShippingRate): number => {
    if (r.country_code === address.country_code) return r.province_code === null ? 2 : r.province_code === address.province_code ? 3 : 0;
    return r.country_code === '*' && !namesCountry ? 1 : 0;
  };
  const best = new Map<string, { rank: number; rate: ShippingRate }>();
  for (const rate of settings.rates) {
    const r = rank(rate);
    if (r > 0 && r > (best.get(rate.code)?.rank ?? 0)) best.set(rate.code, { rank: r, rate });
  }
  return [...best.values()]
    .map((b) => b.rate)
    .filter((r) => (r.min_subtotal === null || subtotal >= r.min_subtotal) && (r.max_subtotal === null || subtotal <= r.max_subtotal))
    .map((r) => ({ code: r.code, name: r.name, price: r.price }))
    .sort((a, b) => a.price - b.price || a.name.localeCompare(b.name) || (a.code < b.code ? -1 : 1));
}
