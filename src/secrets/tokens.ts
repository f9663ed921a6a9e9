import { randomBytes } from 'node:crypto';
import { sha256 } from '../digest.js';

/**
 * Bearer tokens and show-once secrets: 256 bits of randomness behind a readable prefix
 * (so a leaked token is recognisable in logs and by secret scanners). Only the SHA-256 hash
 * is stored; a token is high-entropy, so a fast hash is enough and lookups stay indexed.
 */
export function generateToken(prefix: string): { token: string; hash: string; lastFour: string } {
  const token = `${prefix}_${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashToken(token), lastFour: token.slice(-4) };
}

export function hashToken(token: string): string {
  return sha256(token);
}
