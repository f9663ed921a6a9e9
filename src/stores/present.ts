import type { StoreDocument } from './store.js';

export type StoreView = { id: string; name: string; subdomain: string; currency: string; created_at: string; updated_at: string };

export const presentStore = (s: StoreDocument): StoreView => ({
  id: s._id.toHexString(),
  name: s.name,
  subdomain: s.subdomain,
  currency: s.currency,
  created_at: s.created_at.toISOString(),
  updated_at: s.updated_at.toISOString(),
});
