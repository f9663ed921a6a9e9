import type { LevelDocument, LocationDocument } from './models.js';
import { stamps } from '../allow-list.js';

export const presentLocation = (l: LocationDocument) => ({
  id: l._id.toHexString(),
  name: l.name,
  address1: l.address1,
  city: l.city,
  country_code: l.country_code,
  zip: l.zip,
  active: l.active,
  ...stamps(l),
});
export type LocationView = ReturnType<typeof presentLocation>;

export const presentLevel = (l: LevelDocument) => ({
  id: l._id.toHexString(),
  variant_id: l.variant_id.toHexString(),
  product_id: l.product_id.toHexString(),
  location_id: l.location_id.toHexString(),
  available: l.available,
  committed: l.committed ?? 0,
  on_hand: l.available + (l.committed ?? 0),
  updated_at: l.updated_at.toISOString(),
});
export type LevelView = ReturnType<typeof presentLevel>;
