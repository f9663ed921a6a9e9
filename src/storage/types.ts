import type { Readable } from 'node:stream';

/**
 * Where uploaded and exported bytes live. Keys are made by the platform (never a client's path):
 * segments of letters, digits, `.`, `_` and `-`, each starting with a letter or digit,
 * joined by `/`.
 *
 * Large objects are written as a multipart upload whose whole state is `(key, uploadId, parts)`,
 * which the caller keeps (a checkpoint): any process, not only the one that started it, may
 * upload more parts, redo one (the same part number again replaces it), complete or abort it.
 * No part of an upload is visible under its key until it is completed, and then all of it is.
 */
export interface ObjectStorage {
  readonly driver: 'local' | 's3';
  /** Writes the object whole: readers see the old bytes or the new ones, never a mix. */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<{ bytes: Buffer; contentType: string } | null>;
  /** The object as a stream (for objects too large to hold in memory), or null. Read it to the end or destroy it: it holds a file or a connection. */
  open(key: string): Promise<{ stream: Readable; contentType: string; size: number } | null>;
  /** Its size and content type without its bytes, or null. */
  head(key: string): Promise<{ size: number; contentType: string } | null>;
  /** Deleting a key that does not exist is not an error. */
  delete(key: string): Promise<void>;
  /** A URL anyone holding it may GET the object through until it expires (1 s to 7 days). */
  url(key: string, expiresInSeconds: number): Promise<string>;

  /** Begins a multipart upload of `key`; nothing is visible under the key until it completes. */
  startMultipart(key: string, contentType: string): Promise<{ uploadId: string }>;
  /**
   * Stores part `partNumber` (1..10,000) of the upload. Every part but the last must be at least
   * MIN_PART_BYTES (checked when completing). Uploading a part number again replaces that part.
   * The etag is opaque: keep it and hand it back to completeMultipart.
   */
  uploadPart(key: string, uploadId: string, partNumber: number, bytes: Buffer): Promise<{ etag: string }>;
  /**
   * Makes the object from the listed parts, in ascending part number, atomically; a part not
   * stored with that etag is refused (`invalid_part`). Completing an upload that was already
   * completed, with the same parts (a process that died before recording it did), answers the
   * object's size again.
   */
  completeMultipart(key: string, uploadId: string, parts: readonly UploadedPart[]): Promise<{ size: number }>;
  /** Discards the upload and its parts. Aborting one that is gone (aborted or completed) is not an error. */
  abortMultipart(key: string, uploadId: string): Promise<void>;
}

export type UploadedPart = { partNumber: number; etag: string };

/** S3's floor for every part of a multipart upload but the last. */
export const MIN_PART_BYTES = 5 * 1024 * 1024;
/** S3's ceilings: part numbers 1..10,000, each part at most 5 GiB. */
export const MAX_PARTS = 10_000;
export const MAX_PART_BYTES = 5 * 1024 * 1024 * 1024;

/**
 * A refusal the caller can act on: `no_such_upload` (aborted, completed, or never started: start
 * again), `invalid_part` (a listed part is not stored with that etag, or the list is not in
 * ascending part number), `part_too_small` (a part but the last is under MIN_PART_BYTES).
 */
export type StorageErrorCode = 'no_such_upload' | 'invalid_part' | 'part_too_small';

export class StorageError extends Error {
  constructor(
    readonly code: StorageErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StorageError';
  }
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

export function assertPart(partNumber: number, bytes: Buffer): void {
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_PARTS) throw new Error(`part number must be 1..${MAX_PARTS}`);
  if (bytes.length > MAX_PART_BYTES) throw new Error('a part is at most 5 GiB');
}

/** The parts to complete with: not empty, part numbers valid and strictly ascending. */
export function assertPartList(parts: readonly UploadedPart[]): void {
  if (parts.length === 0) throw new StorageError('invalid_part', 'a multipart upload completes with at least one part');
  let previous = 0;
  for (const { partNumber } of parts) {
    if (!Number.isInteger(partNumber) || partNumber <= previous || partNumber > MAX_PARTS) {
      throw new StorageError('invalid_part', 'parts must be listed in strictly ascending part number, 1..10000');
    }
    previous = partNumber;
  }
}
