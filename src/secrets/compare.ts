import { timingSafeEqual } from 'node:crypto';
import { sha256 } from '../digest.js';

/** Whether two byte strings are equal, in time that depends only on their length (false for different lengths). */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Whether a secret a caller sent is the expected one, in constant time whatever either's
 * length (both are hashed first, so the comparison never reveals the expected length).
 */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(sha256(given, 'bytes'), sha256(expected, 'bytes'));
}
