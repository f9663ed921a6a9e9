import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { equalBytes } from './compare.js';

export type SecretsKey = { id: string; key: Buffer };

/**
 * AES-256-GCM for secrets we must read back later (webhook signing keys, outbound message
 * bodies). The first configured key encrypts; any configured key decrypts, found by the key
 * id stored in the envelope, so keys can be rotated. Each purpose gets its own subkey (HKDF),
 * and the purpose is bound as additional data so a ciphertext cannot be replayed elsewhere.
 */
const VERSION = 'v1';

/** Subkeys derived so far, per configured key (they live as long as the key does). */
const subkeys = new WeakMap<Buffer, Map<string, Buffer>>();

function subkey(key: Buffer, purpose: string): Buffer {
  let byPurpose = subkeys.get(key);
  if (!byPurpose) subkeys.set(key, (byPurpose = new Map()));
  let derived = byPurpose.get(purpose);
  if (!derived) byPurpose.set(purpose, (derived = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `emporium:${purpose}`, 32))));
  return derived;
}

function current(keys: readonly SecretsKey[]): SecretsKey {
  const first = keys[0];
  if (!first) throw new Error('no secrets key configured');
  return first;
}

export function encryptSecret(keys: readonly SecretsKey[], purpose: string, plaintext: string): string {
  const { id, key } = current(keys);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', subkey(key, purpose), iv);
  cipher.setAAD(Buffer.from(purpose));
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, id, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
}

export function decryptSecret(keys: readonly SecretsKey[], purpose: string, envelope: string): string {
  const [version, id, iv, tag, ct] = envelope.split('.');
  const entry = keys.find((k) => k.id === id);
  if (version !== VERSION || !entry || !iv || !tag || ct === undefined) throw new Error('cannot decrypt: unknown key or malformed envelope');
  const decipher = createDecipheriv('aes-256-gcm', subkey(entry.key, purpose), Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(purpose));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
}

/**
 * Keyed hash for low-entropy secrets (6-digit codes): a database leak alone does not let
 * anyone enumerate them. Stored as `<key id>:<hex>` so verification survives a key rotation.
 */
export function keyedHash(keys: readonly SecretsKey[], purpose: string, value: string): string {
  const { id, key } = current(keys);
  return `${id}:${createHmac('sha256', subkey(key, purpose)).update(value).digest('hex')}`;
}

export function verifyKeyedHash(keys: readonly SecretsKey[], purpose: string, value: string, stored: string): boolean {
  const [id, hex] = stored.split(':');
  const entry = keys.find((k) => k.id === id);
  if (!entry || !hex) return false;
  const expected = Buffer.from(hex, 'hex');
  const actual = createHmac('sha256', subkey(entry.key, purpose)).update(value).digest();
  return equalBytes(expected, actual);
}
