import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

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
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  // Compare equal-length digests so the length of a guess does not leak through timing.
  const ah = createHash('sha256').update(ab).digest();
  const bh = createHash('sha256').update(bb).digest();
  return timingSafeEqual(ah, bh) && ab.length === bb.length;
}
