import { ObjectId } from 'mongodb';
import { z } from 'zod';
import type { Platform } from '../platform.js';
import { CountryCode, SubdivisionCode } from '../postal-address.js';
import { replaceStoreSettings } from '../store-settings.js';
import { taxSettings, type TaxSettingsDocument } from './models.js';

const Rate = z.strictObject({
  country_code: CountryCode,
  province_code: SubdivisionCode.nullable().default(null),
  name: z.string().trim().min(1).max(100),
  /** Basis points: 2000 = 20 %. Integers keep tax arithmetic exact. */
  rate_bps: z.number().int().min(0).max(10_000),
});

/** At most this many rows in a store's tax table. */
export const MAX_TAX_RATES = 500;

export const TaxSettingsBody = z
  .strictObject({ shipping_taxable: z.boolean().default(true), rates: z.array(Rate).max(MAX_TAX_RATES) })
  .superRefine((b, ctx) => {
    const seen = new Set<string>();
    b.rates.forEach((r, i) => {
      const key = `${r.country_code}/${r.province_code ?? ''}`;
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['rates', i], message: `another rate already covers ${key}` });
      seen.add(key);
    });
  });
export type TaxSettingsBody = z.infer<typeof TaxSettingsBody>;

export type TaxSettingsView = { shipping_taxable: boolean; rates: TaxSettingsDocument['rates']; updated_at: string | null };

const present = (d: TaxSettingsDocument | null): TaxSettingsView =>
  d
    ? { shipping_taxable: d.shipping_taxable, rates: d.rates, updated_at: d.updated_at.toISOString() }
    : { shipping_taxable: true, rates: [], updated_at: null };

export async function getTaxSettings(platform: Pick<Platform, 'db'>, storeId: string): Promise<TaxSettingsView> {
  return present(await taxSettings(platform.db).findOne({ store_id: new ObjectId(storeId) }));
}

/** Replace the store's rate table (the whole table: it is small and edited as one). */
export function putTaxSettings(platform: Platform, storeId: string, input: TaxSettingsBody): Promise<TaxSettingsView> {
  return replaceStoreSettings(platform, storeId, {
    collection: taxSettings(platform.db),
    set: { shipping_taxable: input.shipping_taxable, rates: input.rates },
    present,
    event: 'tax_settings.updated',
    payloadKey: 'tax_settings',
    what: 'The tax settings',
  });
}

/** The rate for an address: the province's when the table has one, else the country's, else 0. */
export function rateFor(
  settings: TaxSettingsView,
  address: { country_code: string; province_code?: string | null } | null,
): { rate_bps: number; name: string | null } {
  if (!address) return { rate_bps: 0, name: null };
  const province = address.province_code
    ? settings.rates.find((r) => r.country_code === address.country_code && r.province_code === address.province_code)
    : undefined;
  const country = settings.rates.find((r) => r.country_code === address.country_code && r.province_code === null);
  const rate = province ?? country;
  return rate ? { rate_bps: rate.rate_bps, name: rate.name } : { rate_bps: 0, name: null };
}

/**
 * Tax on an amount in minor units, rounded half up, in integers: floor((amount × rate_bps +
 * 5000) / 10000), exactly for any integer amount. While amount × rate_bps stays within 2^53 the
 * float arithmetic is exact; past that (a line of 10^12 minor units at 10 %) it would round the
 * product first, so it is done in BigInt. A negative amount (a refund) gets the tax of its
 * opposite, negated: halves round away from zero both ways.
 */
export function taxOn(amount: number, rateBps: number): number {
  if (!Number.isInteger(amount) || !Number.isInteger(rateBps) || rateBps < 0)
    throw new RangeError(`taxOn needs integers and a rate >= 0, got ${amount} at ${rateBps}`);
  if (amount < 0) return -taxOn(-amount, rateBps);
  const product = amount * rateBps;
  if (Number.isSafeInteger(product)) return Math.floor((product + 5_000) / 10_000);
  return Number((BigInt(amount) * BigInt(rateBps) + 5_000n) / 10_000n);
}
