/**
 * Where uploaded bytes live. Keys are made by the platform (never a client's path):
 * segments of letters, digits, `.`, `_` and `-`, each starting with a letter or digit,
 * joined by `/`.
 */
export interface ObjectStorage {
  readonly driver: 'local' | 's3';
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<{ bytes: Buffer; contentType: string } | null>;
  /** Deleting a key that does not exist is not an error. */
  delete(key: string): Promise<void>;
  /** A URL anyone holding it may GET the object through until it expires. */
  url(key: string, expiresInSeconds: number): string;
}

const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;
export const MAX_KEY_LENGTH = 512;

export function isStorageKey(key: string): boolean {
  return key.length <= MAX_KEY_LENGTH && KEY.test(key);
}

export function assertStorageKey(key: string): void {
  if (!isStorageKey(key)) throw new Error(`not a storage key: ${JSON.stringify(key.slice(0, 80))}`);
}

/** Presigned URLs are bounded: S3 refuses more than 7 days, and we never need more. */
export const MAX_URL_EXPIRY_SECONDS = 7 * 24 * 3600;

export function assertExpiry(seconds: number): void {
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_URL_EXPIRY_SECONDS) {
    throw new Error(`URL expiry must be 1..${MAX_URL_EXPIRY_SECONDS} seconds`);
  }
}
