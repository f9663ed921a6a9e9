import { ObjectId } from 'mongodb';
import { findVariants, getProduct } from '../catalog/index.js';
import { isDuplicateKeyError } from '../db.js';
import { PlatformError, invalidInput, notFound } from '../errors.js';
import { parseObjectId } from '../ids.js';
import { afterCursor, type Page, findPage } from '../pagination.js';
import type { Platform } from '../platform.js';
import { presentWishlistItem, type WishlistItemView } from './present.js';
import type { AddWishlistItemBody } from './schemas.js';
import { wishlistItems } from './models.js';

export const MAX_WISHLIST_ITEMS = 500;

const owner = (storeId: string, customerId: string) => ({ store_id: new ObjectId(storeId), customer_id: new ObjectId(customerId) });

export async function listWishlist(
  platform: Platform,
  storeId: string,
  customerId: string,
  page: Page,
): Promise<{ items: WishlistItemView[]; nextCursor: string | null }> {
  const { items, nextCursor } = await findPage(wishlistItems(platform.db), { ...owner(storeId, customerId), ...afterCursor(page) }, page.limit);
  return { items: items.map(presentWishlistItem), nextCursor };
}

/** Whether a product is one a shopper of the store may see: the store's, and active (never a draft or archived one). */
async function isShoppable(platform: Platform, storeId: string, productId: string): Promise<boolean> {
  try {
    return (await getProduct(platform, storeId, productId)).status === 'active';
  } catch (err) {
    if (err instanceof PlatformError && err.kind === 'not_found') return false;
    throw err;
  }
}

/**
 * Save a product (or one of its variants) of the customer's own store. Saving what is already
 * saved answers the item as it is (201 either way): the list holds each item once.
 */
export async function addWishlistItem(platform: Platform, storeId: string, customerId: string, input: AddWishlistItemBody): Promise<WishlistItemView> {
  if (!(await isShoppable(platform, storeId, input.product_id))) throw invalidInput([{ path: 'product_id', message: 'is not a product of this store' }]);
  if (input.variant_id !== undefined) {
    const variant = (await findVariants(platform, storeId, [input.variant_id])).get(input.variant_id);
    if (variant?.product_id !== input.product_id) throw invalidInput([{ path: 'variant_id', message: 'is not a variant of this product' }]);
  }
  const scope = owner(storeId, customerId);
  const key = `${input.product_id}:${input.variant_id ?? '*'}`;
  const existing = await wishlistItems(platform.db).findOne({ ...scope, key });
  if (existing) return presentWishlistItem(existing);
  if ((await wishlistItems(platform.db).countDocuments(scope, { limit: MAX_WISHLIST_ITEMS })) >= MAX_WISHLIST_ITEMS) {
    throw new PlatformError('conflict', 'wishlist_full', `A wishlist holds at most ${MAX_WISHLIST_ITEMS} items`);
  }
  const doc = {
    _id: new ObjectId(),
    ...scope,
    product_id: new ObjectId(input.product_id),
    variant_id: input.variant_id === undefined ? null : new ObjectId(input.variant_id),
    key,
    created_at: platform.clock.now(),
  };
  try {
    await wishlistItems(platform.db).insertOne(doc);
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
    // Saved by a concurrent request a moment ago.
    const saved = await wishlistItems(platform.db).findOne({ ...scope, key });
    if (saved) return presentWishlistItem(saved);
    throw err;
  }
  return presentWishlistItem(doc);
}

export async function removeWishlistItem(platform: Platform, storeId: string, customerId: string, itemId: string): Promise<void> {
  const id = parseObjectId(itemId);
  const { deletedCount } = id ? await wishlistItems(platform.db).deleteOne({ _id: id, ...owner(storeId, customerId) }) : { deletedCount: 0 };
  if (deletedCount !== 1) throw notFound('Wishlist item');
}
