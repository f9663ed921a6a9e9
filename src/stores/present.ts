import type { ScopedStore } from '../http/context.js';
import type { StoreDocument } from './models.js';
import { stamps } from '../allow-list.js';

/** The locale of a store that never set one. */
export const DEFAULT_STORE_LOCALE = 'en';

/** A store as the API shows it: also what store-scoped requests act on (`ctx.state.store`). */
export type StoreView = ScopedStore;

export const presentStore = (s: StoreDocument): StoreView => ({
  id: s._id.toHexString(),
  name: s.name,
  subdomain: s.subdomain,
  currency: s.currency,
  locale: s.locale ?? DEFAULT_STORE_LOCALE,
  live_theme_id: s.live_theme_id?.toHexString() ?? null,
  email_sender: s.email_sender ? { name: s.email_sender.name, email: s.email_sender.email } : null,
  ...stamps(s),
});
