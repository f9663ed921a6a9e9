import { PlatformError } from '../errors.js';

/** Null for what the REST twin answers 404 for (another store's id, a draft, an unknown cart): GraphQL answers absence with null. */
export async function orNull<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof PlatformError && err.kind === 'not_found') return null;
    throw err;
  }
}
