import type { StoreAccess } from '../http/context.js';
import { findOwnedStore, findStoreById } from './service.js';

/**
 * Who may act on a store: a merchant on the stores it owns; an app installation and a
 * customer only on their own store.
 */
export const storeAccess: StoreAccess = async (platform, principal, storeId) => {
  if (principal.kind === 'merchant') return findOwnedStore(platform, principal.merchantId, storeId);
  return principal.storeId === storeId ? findStoreById(platform, storeId) : null;
};
