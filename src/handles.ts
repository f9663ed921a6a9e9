import { randomBytes } from 'node:crypto';
import type { Collection, ObjectId, WithId } from 'mongodb';
import { findInStore, isDuplicateKeyError, onDuplicateKey } from './db.js';
import { PlatformError } from './errors.js';
import type { Platform } from './platform.js';
import { deleteAsRead } from './deleting.js';

/**
 * Handles, the URL names of a store's products, collections, pages and articles
 * (`/products/<handle>`): made from a title, unique per store and kind by a unique index.
 */

/** `Blue Shirt (Large)!` → `blue-shirt-large`; a title with no letter or digit of a-z/0-9 (`日本語`) gives `fallback`. */
export function slugify(title: string, fallback = 'item'): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/g, '');
  return slug || fallback;
}

/** 409 `handle_taken`: another document of the kind (`what`: "page") in the store has `handle`. */
export const handleTaken = (handle: string, what?: string) =>
  new PlatformError(
    'conflict',
    'handle_taken',
    what ? `The handle "${handle}" is already used by another ${what} of this store` : `The handle "${handle}" is already in use in this store`,
  );

/**
 * Insert with a unique handle: the given one (taken → 409), or one derived from the title (or
 * `fallback`) with `-2`, `-3`, ... appended until the store's unique index accepts it.
 */
export async function insertWithHandle<T>(
  given: string | undefined,
  title: string,
  insert: (handle: string) => Promise<T>,
  kind: { what?: string; fallback?: string } = {},
): Promise<T> {
  if (given) return onDuplicateKey(insert(given), () => handleTaken(given, kind.what));
  const base = slugify(title, kind.fallback);
  for (let n = 1; n <= 50; n++) {
    const handle = n === 1 ? base : `${base}-${n}`;
    try {
      return await insert(handle);
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
  }
  return insert(`${base}-${randomBytes(3).toString('hex')}`);
}

type HandledDocument = { _id: ObjectId; store_id: ObjectId; handle: string; version: number; pending_events?: PendingEvent[] };
type PendingEvent = ReturnType<Platform['events']['pending']>;

/**
 * Deletes a store's document that has a handle (a product, a collection, a page, an article) with
 * its `<kind>.deleted` event, which names its id (under `<kind>`) and the handle it had: the delete is conditional on
 * the version read, so the event names the handle the document had when it went, and is retried
 * `attempts` times before `conflict()`. Events the document still carries (a write whose process
 * stopped) go with the delete's intent, written before anything is removed. `alsoRemove` runs once
 * the document is gone, under the intent. 404 naming `what` when it is not (or no longer) there.
 */
export async function deleteWithHandle<T extends HandledDocument>(
  platform: Platform,
  target: { collection: Collection<T>; carrier: string; event: Parameters<Platform['events']['pending']>[0]; what: string },
  storeId: string,
  rawId: string,
  rules: { attempts: number; conflict: () => PlatformError; alsoRemove?: (doc: WithId<T>) => Promise<void> },
): Promise<void> {
  for (let attempt = 1; attempt <= rules.attempts; attempt++) {
    const doc = await findInStore(target.collection, storeId, rawId, target.what);
    const kind = target.event.slice(0, target.event.indexOf('.'));
    const payload = { [kind]: { id: doc._id.toHexString(), handle: doc.handle } };
    if (await deleteAsRead(platform, target, doc, payload, { removed: () => rules.alsoRemove?.(doc) })) return;
  }
  throw rules.conflict();
}
