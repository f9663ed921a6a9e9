import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, type CryptoKey } from 'jose';
import type { Db } from 'mongodb';
import { isDuplicateKeyError } from '../../db.js';
import type { Platform } from '../../platform.js';
import { decryptSecret, encryptSecret } from '../../secrets/index.js';
import { signingKeys, type SigningKeyDocument } from './models.js';

/**
 * The platform's signing keys (docs/oauth.md, Signing keys): ES256 key pairs that sign session
 * tokens and install links, kept in `signing_keys` with the private key encrypted
 * (SECRETS_KEYS, purpose `apps.signing_key`). The newest key signs; every key still published
 * verifies. Each process keeps the keys it read in memory, reads them again after a minute (so
 * a rotation made elsewhere takes over within it), and at once when it is shown a kid it does
 * not know.
 */
const PURPOSE = 'apps.signing_key';
export const SIGNING_ALG = 'ES256';
/**
 * The first key's kid. A process that finds no key inserts one under this id, so of processes
 * starting at once exactly one insert wins and the others read the winner's key.
 */
export const FIRST_KID = 'sk_initial';
/**
 * How long a key replaced by a rotation stays published and verifies: far longer than any token
 * it signed lives (session tokens at most 10 minutes, install links 5) plus the JWKS's max-age
 * (5 minutes), so no token in flight and no app's cached JWKS is cut short.
 */
export const RETIRED_KEY_GRACE_SECONDS = 24 * 60 * 60;
/** How long a process signs with the keys it read before reading them again. */
const RELOAD_AFTER_MS = 60_000;

/** A key as the JWKS publishes it (RFC 7517, 7518 6.2). */
export type PublicSigningJwk = { kty: 'EC'; crv: 'P-256'; x: string; y: string; kid: string; alg: 'ES256'; use: 'sig' };

type KnownKey = { jwk: PublicSigningJwk; publicKey: CryptoKey; retiredAt: Date | null };
type KeyRing = {
  loadedAt: number;
  /** The signing key (the newest). */
  current: SigningKeyDocument;
  /** Every key that verifies: the current one and those retired within the grace period (when read). */
  keys: Map<string, KnownKey>;
  privateKey?: Promise<CryptoKey>;
};

/** The key ring each database handle (each platform) read last, and a read in flight, if any. */
const rings = new WeakMap<Db, KeyRing>();
const loading = new WeakMap<Db, Promise<KeyRing>>();

/** The key that signs now, with its kid; the first key is made here when there is none. */
export async function currentSigningKey(platform: Platform): Promise<{ kid: string; privateKey: CryptoKey }> {
  const ring = await keyRing(platform);
  ring.privateKey ??= openPrivateKey(platform, ring.current);
  return { kid: ring.current._id, privateKey: await ring.privateKey };
}

/**
 * The public key of `kid` if it verifies now (current, or retired within the grace period),
 * else null. A kid this process does not know makes it read the keys again, once.
 */
export async function verificationKey(platform: Platform, kid: string): Promise<CryptoKey | null> {
  let known = (await keyRing(platform)).keys.get(kid);
  if (!known) known = (await reloadKeyRing(platform)).keys.get(kid);
  if (!known) return null;
  return verifies(platform, known) ? known.publicKey : null;
}

/** The keys `/.well-known/jwks.json` publishes, read from the database (a rotation elsewhere shows at once). */
export async function publishedSigningKeys(platform: Platform): Promise<PublicSigningJwk[]> {
  const ring = await reloadKeyRing(platform);
  return [...ring.keys.values()].filter((k) => verifies(platform, k)).map((k) => k.jwk);
}

/**
 * Makes a new key the signing key. The key it replaces (and any other not yet retired) is
 * marked retired now and keeps verifying for RETIRED_KEY_GRACE_SECONDS; keys retired longer
 * ago than that are deleted. Other processes switch within a minute; until then they sign with
 * the previous key, which still verifies.
 */
export async function rotateSigningKey(platform: Platform): Promise<{ kid: string; retired: string[] }> {
  const now = platform.clock.now();
  const doc = await newKeyDocument(platform, `sk_${randomBytes(12).toString('base64url')}`, now);
  await signingKeys(platform.db).insertOne(doc);
  const retired = await signingKeys(platform.db)
    .find({ _id: { $ne: doc._id }, retired_at: null }, { projection: { _id: 1 } })
    .toArray();
  await signingKeys(platform.db).updateMany({ _id: { $in: retired.map((r) => r._id) }, retired_at: null }, { $set: { retired_at: now } });
  await signingKeys(platform.db).deleteMany({ retired_at: { $lt: new Date(now.getTime() - RETIRED_KEY_GRACE_SECONDS * 1000) } });
  await reloadKeyRing(platform);
  platform.log.info({ event: 'apps.signing_key_rotated', kid: doc._id, retired: retired.map((r) => r._id) });
  return { kid: doc._id, retired: retired.map((r) => r._id) };
}

function verifies(platform: Platform, key: KnownKey): boolean {
  return key.retiredAt === null || platform.clock.now().getTime() - key.retiredAt.getTime() < RETIRED_KEY_GRACE_SECONDS * 1000;
}

async function keyRing(platform: Platform): Promise<KeyRing> {
  const ring = rings.get(platform.db);
  const age = ring ? platform.clock.now().getTime() - ring.loadedAt : -1;
  // A negative age (the clock was set back) counts as stale too.
  if (ring && age >= 0 && age < RELOAD_AFTER_MS) return ring;
  return reloadKeyRing(platform);
}

/** Reads the keys again; concurrent callers share one read. */
function reloadKeyRing(platform: Platform): Promise<KeyRing> {
  const inFlight = loading.get(platform.db);
  if (inFlight) return inFlight;
  const read = readKeyRing(platform)
    .then((ring) => {
      rings.set(platform.db, ring);
      return ring;
    })
    .finally(() => loading.delete(platform.db));
  loading.set(platform.db, read);
  return read;
}

async function readKeyRing(platform: Platform): Promise<KeyRing> {
  const collection = signingKeys(platform.db);
  let docs = await collection.find({}).toArray();
  if (docs.length === 0) {
    try {
      await collection.insertOne(await newKeyDocument(platform, FIRST_KID, platform.clock.now()));
      platform.log.info({ event: 'apps.signing_key_created', kid: FIRST_KID });
    } catch (err) {
      // Another process made the first key at the same moment: use that one.
      if (!isDuplicateKeyError(err)) throw err;
    }
    docs = await collection.find({}).toArray();
  }
  // The newest signs; on a tie (two rotations in one millisecond) every process picks the same one.
  docs.sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0));
  const current = docs[0]!;
  const keys = new Map<string, KnownKey>();
  for (const doc of docs) {
    const known: KnownKey = {
      jwk: doc.public_jwk as PublicSigningJwk,
      publicKey: await importPublicKey(doc),
      retiredAt: doc === current ? null : (doc.retired_at ?? null),
    };
    if (doc === current || verifies(platform, known)) keys.set(doc._id, known);
  }
  return { loadedAt: platform.clock.now().getTime(), current, keys };
}

async function newKeyDocument(platform: Platform, kid: string, now: Date): Promise<SigningKeyDocument> {
  const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
  const pub = await exportJWK(publicKey);
  const publicJwk: PublicSigningJwk = { kty: 'EC', crv: 'P-256', x: pub.x!, y: pub.y!, kid, alg: SIGNING_ALG, use: 'sig' };
  return {
    _id: kid,
    alg: SIGNING_ALG,
    public_jwk: publicJwk,
    private_jwk_encrypted: encryptSecret(platform.config.secretsKeys, PURPOSE, JSON.stringify(await exportJWK(privateKey))),
    created_at: now,
    retired_at: null,
  };
}

async function importPublicKey(doc: SigningKeyDocument): Promise<CryptoKey> {
  const { kty, crv, x, y } = doc.public_jwk as PublicSigningJwk;
  return (await importJWK({ kty, crv, x, y }, SIGNING_ALG)) as CryptoKey;
}

async function openPrivateKey(platform: Platform, doc: SigningKeyDocument): Promise<CryptoKey> {
  const jwk = JSON.parse(decryptSecret(platform.config.secretsKeys, PURPOSE, doc.private_jwk_encrypted)) as Record<string, string>;
  const pub = doc.public_jwk as PublicSigningJwk;
  // The purpose binds the ciphertext to signing keys, not to this key: a private key swapped in from another document is caught here.
  if (jwk.x !== pub.x || jwk.y !== pub.y) throw new Error(`signing key ${doc._id}: the private key does not match the public key`);
  return (await importJWK(jwk, SIGNING_ALG)) as CryptoKey;
}
