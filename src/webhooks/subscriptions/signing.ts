import { createHmac, randomBytes } from 'node:crypto';
import type { SecretsKey } from '../../secrets/index.js';
import { decryptSecret, encryptSecret } from '../../secrets/index.js';
import type { StoredSecret } from './models.js';

/**
 * Webhook signing (spec 6.1): HMAC-SHA256, hex, over `<timestamp>.<raw body>`, sent as
 * `v1=<hex>`. The key is the subscription's signing secret as UTF-8 text (`whsec_…`).
 *
 * `X-Platform-Hmac-SHA256` and its alias `X-Platform-Signature` carry exactly one signature, the
 * current secret's: spec 6.1 rule 2 has receivers strip the optional `v1=` and compare the rest,
 * which a list (`v1=<new>,v1=<old>`) would break. During a rotation's grace period the previous
 * secret's signature goes in its own header, `X-Platform-Hmac-SHA256-Previous` (same format),
 * for a receiver that has not switched to the new secret yet (docs/webhooks.md).
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

/** Why a stored signing secret did not open. */
export type UnreadableSecret = {
  /**
   * `key_missing`: the key it was sealed with is not in SECRETS_KEYS; `undecryptable`: that key
   * (by id) does not open it; `no_secret`: there is none (an app submitted before app webhooks).
   */
  cause: 'key_missing' | 'undecryptable' | 'no_secret';
  /** The id of the SECRETS_KEYS key it was sealed with, when the envelope names one (an id, not a secret). */
  keyId: string | null;
};

/**
 * openSecret that does not throw: the secret, or why it cannot be decrypted. Nothing about the
 * secret or its ciphertext is in the answer.
 */
export function tryOpenSecret(keys: readonly SecretsKey[], stored: StoredSecret): { ok: true; secret: string } | ({ ok: false } & UnreadableSecret) {
  try {
    return { ok: true, secret: openSecret(keys, stored) };
  } catch {
    const keyId = sealedKeyId(stored);
    return { ok: false, cause: keyId !== null && keys.some((k) => k.id === keyId) ? 'undecryptable' : 'key_missing', keyId };
  }
}

/**
 * The id of the key a secret was sealed with: the second field of the envelope of
 * src/secrets/encryption.ts (`v1.<key id>.<iv>.<tag>.<ciphertext>`). Only a plausible id is
 * returned, so nothing else of a damaged envelope ever reaches a log line.
 */
function sealedKeyId(stored: StoredSecret): string | null {
  const id = stored.ciphertext.split('.')[1];
  return id !== undefined && /^[A-Za-z0-9_-]{1,64}$/.test(id) ? id : null;
}

/**
 * The attempt's error for a secret that cannot be decrypted (docs/webhooks.md, Outcomes and
 * retries): which secret, and why, without the secret, its ciphertext or the key's id (the
 * attempt is shown to the merchant; the operator's log line names the key id).
 */
export function unreadableSecretError(which: 'current' | 'previous', { cause }: UnreadableSecret): string {
  const what = which === 'current' ? 'Signing secret' : 'Previous signing secret';
  if (cause === 'no_secret')
    return 'The app has no webhook signing secret: its partner must rotate one (POST /v1/app-store/developers/apps/:id/webhook-secret)';
  return cause === 'key_missing'
    ? `${what} cannot be decrypted: the key it was sealed with is not in SECRETS_KEYS (restore that key, or rotate the secret with grace_period_seconds 0)`
    : `${what} cannot be decrypted: it does not open with the key of its id in SECRETS_KEYS (the key was changed, or the stored secret is damaged; rotate the secret with grace_period_seconds 0)`;
}

export function signature(secret: string, timestamp: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
}

/** One signature header value: `v1=<hex>`. */
export function signatureHeader(secret: string, timestamp: number, rawBody: string): string {
  return `v1=${signature(secret, timestamp, rawBody)}`;
}

export const SIGNATURE_HEADER = 'X-Platform-Hmac-SHA256';
export const SIGNATURE_ALIAS_HEADER = 'X-Platform-Signature';
export const PREVIOUS_SIGNATURE_HEADER = 'X-Platform-Hmac-SHA256-Previous';

/**
 * The signature headers of one request: the current secret's signature in the header and its
 * alias, and, while a rotated-out secret still signs, that secret's in the previous header.
 */
export function signatureHeaders(current: string, previous: string | null, timestamp: number, rawBody: string): Record<string, string> {
  const signed = signatureHeader(current, timestamp, rawBody);
  return {
    [SIGNATURE_HEADER]: signed,
    [SIGNATURE_ALIAS_HEADER]: signed,
    ...(previous === null ? {} : { [PREVIOUS_SIGNATURE_HEADER]: signatureHeader(previous, timestamp, rawBody) }),
  };
}
