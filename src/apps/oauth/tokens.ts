import { ObjectId } from 'mongodb';
import { isSessionLive } from '../../auth/index.js';
import type { AppPrincipal, Authenticator } from '../../http/context.js';
import type { Platform } from '../../platform.js';
import { generateToken, hashToken } from '../../secrets/index.js';
import { appSuspendedError, isAppSuspended } from '../../security/index.js';
import { installations, type InstallationDocument } from '../installations/models.js';
import { oauthCodes, oauthTokens, type AccessMode, type TokenDocument } from './models.js';
import { sessionTokenUses } from '../session-tokens/models.js';

export const ACCESS_TOKEN_PREFIX = 'emp_at';
export const REFRESH_TOKEN_PREFIX = 'emp_rt';
/** Longer than any token we issue (prefix + 43 base64url characters): refused before hashing. */
const MAX_TOKEN_LENGTH = 100;

/** What one grant hands the client (RFC 6749 5.1); `refresh_token` only for offline tokens. */
export type IssuedTokens = {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  scope: string;
  /** The stored documents (for replay checks after issuing). */
  ids: ObjectId[];
};

export type IssueInput = {
  installation: Pick<InstallationDocument, '_id' | 'app_id' | 'store_id' | 'grant_id'>;
  scopes: readonly string[];
  mode: AccessMode;
  familyId: ObjectId;
  codeId: ObjectId | null;
  parentId: ObjectId | null;
  /** Online tokens: the merchant user and session, and when the session ends (the token ends no later). */
  online?: { merchantId: ObjectId; sessionId: ObjectId; sessionExpiresAt: Date } | null;
};

/**
 * Mint an access token (and, offline, a refresh token) under one family. Only SHA-256 hashes
 * are stored; the plaintext exists only in the response.
 */
export async function issueTokens(platform: Platform, input: IssueInput): Promise<IssuedTokens> {
  const now = platform.clock.now();
  const { accessTokenTtlSeconds, refreshTokenTtlSeconds } = platform.config.apps;
  let accessExpires = new Date(now.getTime() + accessTokenTtlSeconds * 1000);
  if (input.online && input.online.sessionExpiresAt < accessExpires) accessExpires = input.online.sessionExpiresAt;
  const base = {
    app_id: input.installation.app_id,
    installation_id: input.installation._id,
    grant_id: input.installation.grant_id,
    store_id: input.installation.store_id,
    scopes: [...input.scopes],
    access_mode: input.mode,
    merchant_id: input.online?.merchantId ?? null,
    session_id: input.online?.sessionId ?? null,
    family_id: input.familyId,
    code_id: input.codeId,
    parent_id: input.parentId,
    used_at: null,
    revoked_at: null,
    created_at: now,
  };
  const access = generateToken(ACCESS_TOKEN_PREFIX);
  const docs: TokenDocument[] = [{ _id: new ObjectId(), kind: 'access', token_hash: access.hash, expires_at: accessExpires, ...base }];
  let refresh: string | undefined;
  if (input.mode === 'offline') {
    const r = generateToken(REFRESH_TOKEN_PREFIX);
    refresh = r.token;
    docs.push({ _id: new ObjectId(), kind: 'refresh', token_hash: r.hash, expires_at: new Date(now.getTime() + refreshTokenTtlSeconds * 1000), ...base });
  }
  await oauthTokens(platform.db).insertMany(docs);
  return {
    access_token: access.token,
    token_type: 'Bearer',
    expires_in: Math.max(0, Math.floor((accessExpires.getTime() - now.getTime()) / 1000)),
    ...(refresh ? { refresh_token: refresh } : {}),
    scope: input.scopes.join(' '),
    ids: docs.map((d) => d._id),
  };
}

/** A stored token by its plaintext, of one kind (null for anything that is not one of ours). */
export async function findToken(platform: Platform, token: string, kind: TokenDocument['kind']): Promise<TokenDocument | null> {
  const prefix = kind === 'access' ? ACCESS_TOKEN_PREFIX : REFRESH_TOKEN_PREFIX;
  if (!token.startsWith(`${prefix}_`) || token.length > MAX_TOKEN_LENGTH) return null;
  return oauthTokens(platform.db).findOne({ token_hash: hashToken(token), kind });
}

/** Revoke every live token matching `filter` (a family, a code's tokens, an installation's); returns how many. */
export async function revokeTokens(
  platform: Platform,
  filter: Partial<Pick<TokenDocument, 'family_id' | 'code_id' | 'installation_id'>> | { _id: { $in: ObjectId[] } },
): Promise<number> {
  const result = await oauthTokens(platform.db).updateMany({ ...filter, revoked_at: null }, { $set: { revoked_at: platform.clock.now() } });
  return result.modifiedCount;
}

/** The installation a token was issued under, if it is active and still under that grant. */
export async function liveInstallation(platform: Platform, token: Pick<TokenDocument, 'installation_id' | 'grant_id'>): Promise<InstallationDocument | null> {
  const installation = await installations(platform.db).findOne({ _id: token.installation_id });
  if (!installation || installation.status !== 'active' || !installation.grant_id.equals(token.grant_id)) return null;
  return installation;
}

/**
 * Access tokens (`emp_at_…`) become app principals: live (not expired or revoked), of an
 * active installation under the grant it was issued in (an uninstall ends them at once), an
 * online token only while its merchant session lives; of an app an operator suspended, 403
 * `app_suspended` instead. Scopes are those of the token that the installation still grants
 * (a narrower re-authorization applies at once).
 */
export const accessTokenAuthenticator: Authenticator = {
  prefix: `${ACCESS_TOKEN_PREFIX}_`,
  async authenticate(platform, token) {
    const doc = await findToken(platform, token, 'access');
    const now = platform.clock.now();
    if (!doc || doc.revoked_at || doc.expires_at <= now) return null;
    // A suspended app's live token is refused, as such, on every route (docs/operations.md, Security enforcement).
    if (await isAppSuspended(platform, doc.app_id.toHexString())) throw appSuspendedError();
    const installation = await liveInstallation(platform, doc);
    if (!installation) return null;
    if (doc.access_mode === 'online' && (!doc.session_id || !(await isSessionLive(platform, doc.session_id)))) return null;
    const granted = new Set(installation.scopes);
    const principal: AppPrincipal = {
      kind: 'app',
      appId: doc.app_id.toHexString(),
      installationId: doc.installation_id.toHexString(),
      storeId: doc.store_id.toHexString(),
      scopes: doc.scopes.filter((s) => granted.has(s)),
      onlineMerchantId: doc.merchant_id?.toHexString() ?? null,
    };
    return principal;
  },
};

/** Codes are kept a day past their expiry, so a late replay still revokes what they issued. */
const CODE_KEEP_MS = 24 * 60 * 60 * 1000;

/**
 * For the maintenance sweep: expired tokens (no longer usable), long-expired codes, rotation
 * answers kept past their retry's grace, and exchanged session tokens past their expiry.
 */
export async function sweepExpiredOAuth(platform: Pick<Platform, 'db' | 'clock'>): Promise<number> {
  const now = platform.clock.now();
  const [codes, tokens, answers, exchanged] = await Promise.all([
    oauthCodes(platform.db).deleteMany({ expires_at: { $lte: new Date(now.getTime() - CODE_KEEP_MS) } }),
    oauthTokens(platform.db).deleteMany({ expires_at: { $lte: now } }),
    oauthTokens(platform.db).updateMany({ retry_until: { $lte: now } }, { $set: { rotation_answer: null, retry_until: null } }),
    sessionTokenUses(platform.db).deleteMany({ expires_at: { $lte: now } }),
  ]);
  return codes.deletedCount + tokens.deletedCount + answers.modifiedCount + exchanged.deletedCount;
}
