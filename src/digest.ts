import { createHash } from 'node:crypto';

/**
 * SHA-256 of text (UTF-8) or bytes: hex by default (stored hashes of tokens, idempotency record
 * ids, asset checksums), base64url (ETags), or the raw 32 bytes (constant-time comparisons).
 */
export function sha256(data: string | Uint8Array, encoding?: 'hex' | 'base64url'): string;
export function sha256(data: string | Uint8Array, encoding: 'bytes'): Buffer;
export function sha256(data: string | Uint8Array, encoding: 'hex' | 'base64url' | 'bytes' = 'hex'): string | Buffer {
  const hash = createHash('sha256').update(data);
  return encoding === 'bytes' ? hash.digest() : hash.digest(encoding);
}
