import { randomBytes } from 'node:crypto';
import { ObjectId } from 'mongodb';
import { notFound } from '../../errors.js';
import { parseObjectId } from '../../ids.js';
import type { Platform } from '../../platform.js';
import { equalBytes, generateToken, hashToken } from '../../secrets/index.js';
import { apps, type AppDocument, type HashedSecret } from './models.js';

/**
 * A partner's app credentials (spec 2.2, 5): the public OAuth client id, and two show-once
 * secrets (client secret, API key) of which only HashedSecret metadata is kept.
 */
export const CLIENT_ID_PREFIX = 'emp_ci';
export const CLIENT_SECRET_PREFIX = 'emp_cs';
export const API_KEY_PREFIX = 'emp_ak';
/** The display prefix: the type prefix and four random characters (`emp_ak_Q3xZ`), enough to tell keys apart. */
const DISPLAY_PREFIX_LENGTH = 11;

/** A new show-once secret: the plaintext to answer once, and what is stored. */
export function newSecret(prefix: string, now: Date): { plaintext: string; stored: HashedSecret } {
  const { token, hash } = generateToken(prefix);
  return { plaintext: token, stored: { algorithm: 'sha256', hash, prefix: token.slice(0, DISPLAY_PREFIX_LENGTH), created_at: now } };
}

/** A new app's credentials: the client id (public, 128 random bits) and the two secrets. */
export function newCredentials(now: Date) {
  return {
    clientId: `${CLIENT_ID_PREFIX}_${randomBytes(16).toString('hex')}`,
    clientSecret: newSecret(CLIENT_SECRET_PREFIX, now),
    apiKey: newSecret(API_KEY_PREFIX, now),
  };
}

/** Whether `given` is the secret whose metadata is `stored`: its SHA-256 compared in constant time. */
export function matchesSecret(given: string, stored: HashedSecret): boolean {
  return equalBytes(Buffer.from(hashToken(given), 'hex'), Buffer.from(stored.hash, 'hex'));
}

// Compared against when the client id is unknown, so an unknown id costs what a wrong secret does.
const DECOY: HashedSecret = { algorithm: 'sha256', hash: hashToken('emp_cs_decoy'), prefix: 'emp_cs_deco', created_at: new Date(0) };

/**
 * The app whose OAuth client credentials these are (client_secret_basic / client_secret_post),
 * whatever its review status (the caller decides what an unpublished app may do), or null.
 */
export async function authenticateClient(platform: Platform, clientId: string, clientSecret: string): Promise<AppDocument | null> {
  const app = clientId.length <= 100 ? await apps(platform.db).findOne({ client_id: clientId }) : null;
  const ok = matchesSecret(clientSecret, app?.client_secret ?? DECOY);
  return app && ok ? app : null;
}

/** A new show-once API key for the caller's own app; the old one stops matching at once. */
export async function rotateApiKey(
  platform: Platform,
  merchantId: string,
  appId: string,
): Promise<{ app_id: string; api_key: string; prefix: string; created_at: string }> {
  const id = parseObjectId(appId);
  const now = platform.clock.now();
  const key = newSecret(API_KEY_PREFIX, now);
  const updated = id
    ? await apps(platform.db).findOneAndUpdate(
        { _id: id, merchant_id: new ObjectId(merchantId) },
        { $set: { api_key: key.stored, updated_at: now } },
        { returnDocument: 'after' },
      )
    : null;
  if (!updated) throw notFound('App');
  platform.log.info({ event: 'apps.api_key_rotated', app_id: appId, prefix: key.stored.prefix });
  return { app_id: appId, api_key: key.plaintext, prefix: key.stored.prefix, created_at: now.toISOString() };
}
