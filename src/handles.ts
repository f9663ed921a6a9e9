import { randomBytes } from 'node:crypto';
import { isDuplicateKeyError, onDuplicateKey } from './db.js';
import { PlatformError } from './errors.js';

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
