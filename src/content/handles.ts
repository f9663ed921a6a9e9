import { randomBytes } from 'node:crypto';
import { isDuplicateKeyError, onDuplicateKey } from '../db.js';
import { PlatformError } from '../errors.js';

/**
 * Handles as the catalog makes them (src/catalog/handles.ts, which its index does not export):
 * `About Us (2026)!` → `about-us-2026`; a title with no letter or digit of a-z/0-9 (`日本語`)
 * gives `fallback`.
 */
export function slugify(title: string, fallback: string): string {
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

/** 409 `handle_taken`: another page (or article) of the store has `handle`. */
export const handleTaken = (what: string, handle: string) =>
  new PlatformError('conflict', 'handle_taken', `The handle "${handle}" is already used by another ${what} of this store`);

/**
 * Insert with a unique handle: the given one (taken → 409), or one derived from the title with
 * `-2`, `-3`, ... appended until the store's unique index accepts it.
 */
export async function insertWithHandle<T>(what: string, given: string | undefined, title: string, insert: (handle: string) => Promise<T>): Promise<T> {
  if (given) return onDuplicateKey(insert(given), () => handleTaken(what, given));
  const base = slugify(title, what);
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
