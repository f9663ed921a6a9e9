import type { Db } from 'mongodb';
import type { IndexDeclaration } from '../db.js';
import type { StoreSettingsDocument } from '../store-settings.js';

export const TAX_SETTINGS = 'tax_settings';

/** One document per store: its tax rates by country (and optionally province). */
export type TaxSettingsDocument = StoreSettingsDocument & {
  shipping_taxable: boolean;
  rates: { country_code: string; province_code: string | null; name: string; rate_bps: number }[];
};

export const taxIndexes: IndexDeclaration[] = [{ collection: TAX_SETTINGS, indexes: [{ key: { store_id: 1 }, name: 'store_id_unique', unique: true }] }];

export const taxSettings = (db: Db) => db.collection<TaxSettingsDocument>(TAX_SETTINGS);
