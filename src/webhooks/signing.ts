import { createHmac, randomBytes } from 'node:crypto';
import type { SecretsKey } from '../secrets/index.js';
import { decryptSecret, encryptSecret } from '../secrets/index.js';
import type { StoredSecret } from './store.js';

/**
 * Webhook signing (spec 6.1): HMAC-SHA256, hex, over `<timestamp>.<raw body>`, sent as
 * `v1=<hex>`. The key is the subscription's signing secret as UTF-8 text (`whsec_…`). During a
 * rotation's grace period the request carries one signature per live secret, comma-separated
 * (`v1=<new>,v1=<old>`); receivers accept the request when any of them matches.
 */
const PURPOSE = 'webhooks.signing_secret';

export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

export function sealSecret(keys: readonly SecretsKey[], secret: string, now: Date): StoredSecret {
  return { ciphertext: encryptSecret(keys, PURPOSE, secret), created_at: now };
}

/**
 * Secrets opened, by the stored object they came from: the deliveries of one fan-out share
 * their subscription's document, so a burst decrypts each secret once. Nothing outlives the
 * documents it was read with.
 */
const opened = new WeakMap<StoredSecret, string>();

export function openSecret(keys: readonly SecretsKey[], stored: StoredSecret): string {
  let secret = opened.get(stored);
  if (secret === undefined) opened.set(stored, (secret = decryptSecret(keys, PURPOSE, stored.ciphertext)));
  return secret;
}

export function signature(secret: string, timestamp: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
}

export function signatureHeader(secrets: string[], timestamp: number, rawBody: string): string {
  return secrets.map((s) => `v1=${signature(s, timestamp, rawBody)}`).join(',');
}
