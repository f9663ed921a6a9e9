import { randomBytes } from 'node:crypto';
import { SignJWT, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { z } from 'zod';
import { isDuplicateKeyError } from '../../db.js';
import { notFound } from '../../errors.js';
import type { MerchantPrincipal } from '../../http/context.js';
import { parseObjectId } from '../../ids.js';
import type { Platform } from '../../platform.js';
import { SIGNING_ALG, currentSigningKey, verificationKey } from './signing-keys.js';
import { apps, type AppDocument } from '../partners/models.js';
import { installations, type InstallationDocument } from '../installations/models.js';
import { sessionTokenUses } from './models.js';

/**
 * Session tokens and install links (docs/oauth.md, Session tokens): JWTs the platform signs with
 * its ES256 keys (signing-keys.ts), verifiable by anyone with `/.well-known/jwks.json`.
 *
 * - A **session token** is what an embedded app's frontend holds for a signed-in merchant: the
 *   app's backend verifies it, or exchanges it, once, for an access token (token exchange, RFC 8693).
 * - An **install link** rides on the app's `app_url` when a merchant starts an install, so the
 *   app knows the store and can begin its own OAuth flow.
 *
 * Each kind has its own JOSE `typ` header (RFC 8725 3.11) and its own claims, and each verifier
 * demands its own `typ`, so one can never be accepted as the other.
 */
export const SESSION_TOKEN_TYP = 'emp-session+jwt';
export const INSTALL_LINK_TYP = 'emp-install+jwt';
/** The token type of a session token in token exchange (RFC 8693 3), as Shopify's. */
export const SESSION_TOKEN_TYPE_URN = 'urn:ietf:params:oauth:token-type:id_token';
export const INSTALL_LINK_TTL_SECONDS = 300;
/** Clock skew allowed between the platform and whoever verifies: `exp` and `nbf` each get this much slack. */
export const CLOCK_TOLERANCE_SECONDS = 5;

const Registered = { iss: z.string(), aud: z.string(), jti: z.string(), iat: z.number().int(), nbf: z.number().int(), exp: z.number().int() };

export const SessionTokenClaims = z.object({ ...Registered, sub: z.string(), store_id: z.string(), sid: z.string(), installation_id: z.string() });
/** A session token's claims: `sub` the merchant account, `sid` its session, `aud` the app's client id. */
export type SessionTokenClaims = z.infer<typeof SessionTokenClaims>;

export const InstallLinkClaims = z.object({ ...Registered, store_id: z.string(), store_subdomain: z.string(), nonce: z.string() });
/** An install link's claims: `aud` the app's client id, the store being installed into, and the install's nonce. */
export type InstallLinkClaims = z.infer<typeof InstallLinkClaims>;

/**
 * Why a token was refused:
 * - `malformed`: not a compact JWS, bad JSON, a header without `kid`, claims missing or of the wrong type;
 * - `unsupported_algorithm`: not ES256 (`none`, HS256, … are never tried);
 * - `unknown_key`: no key of ours by that kid verifies now (never ours, or retired past the grace period);
 * - `invalid_signature`: the signature does not verify with our key of that kid (tampered, or another key);
 * - `wrong_type`: the other kind of platform token (an install link shown as a session token, or the reverse);
 * - `expired`, `not_yet_valid`: outside `nbf`..`exp`, beyond CLOCK_TOLERANCE_SECONDS;
 * - `wrong_issuer`, `wrong_audience`: issued by another issuer, or for another app.
 */
export type TokenRefusal =
  'malformed' | 'unsupported_algorithm' | 'unknown_key' | 'invalid_signature' | 'wrong_type' | 'expired' | 'not_yet_valid' | 'wrong_issuer' | 'wrong_audience';

export type TokenVerification<C> = { ok: true; claims: C } | { ok: false; reason: TokenRefusal };

export type IssueSessionTokenInput = {
  issuer: string;
  installation: Pick<InstallationDocument, '_id' | 'store_id'>;
  app: Pick<AppDocument, 'client_id'>;
  /** The merchant session the token speaks for (its account and session ids). */
  merchant: Pick<MerchantPrincipal, 'merchantId' | 'sessionId'>;
};

export type IssuedToken<C> = { token: string; claims: C; expiresIn: number };

/** Signs a session token for a merchant's session in an installed app (lifetime SESSION_TOKEN_TTL_SECONDS). */
export async function issueSessionToken(platform: Platform, input: IssueSessionTokenInput): Promise<IssuedToken<SessionTokenClaims>> {
  const expiresIn = platform.config.apps.sessionTokenTtlSeconds;
  const claims: SessionTokenClaims = {
    ...registeredClaims(platform, input.issuer, input.app.client_id, expiresIn),
    sub: input.merchant.merchantId,
    store_id: input.installation.store_id.toHexString(),
    sid: input.merchant.sessionId,
    installation_id: input.installation._id.toHexString(),
  };
  return { token: await sign(platform, SESSION_TOKEN_TYP, claims), claims, expiresIn };
}

/**
 * Verifies a session token: ES256 with a key of ours, `typ` a session token's, issued by
 * `issuer` for `audience` (the app's client id), within its lifetime. Only the token itself:
 * whether its installation is still active and its merchant session still live is the
 * caller's to check.
 */
export function verifySessionToken(
  platform: Platform,
  input: { token: string; issuer: string; audience: string },
): Promise<TokenVerification<SessionTokenClaims>> {
  return verify(platform, input, SESSION_TOKEN_TYP, SessionTokenClaims);
}

/**
 * Record a verified session token as exchanged: true the first time its `jti` is presented,
 * false ever after (RFC 7519 4.1.7: the `jti` is what prevents a replay). One insert under a
 * unique `_id` decides, so of several exchanges at once exactly one is true.
 */
export async function recordSessionTokenExchange(
  platform: Platform,
  claims: SessionTokenClaims,
  installation: Pick<InstallationDocument, '_id' | 'app_id'>,
): Promise<boolean> {
  try {
    await sessionTokenUses(platform.db).insertOne({
      _id: claims.jti,
      app_id: installation.app_id,
      installation_id: installation._id,
      exchanged_at: platform.clock.now(),
      // After this it no longer verifies, so it need not be remembered.
      expires_at: new Date((claims.exp + CLOCK_TOLERANCE_SECONDS) * 1000),
    });
    return true;
  } catch (err) {
    if (isDuplicateKeyError(err)) return false;
    throw err;
  }
}

export type SignInstallLinkInput = {
  issuer: string;
  app: Pick<AppDocument, 'client_id'>;
  store: { id: string; subdomain: string };
  /** The install's nonce: the app hands it back when it starts the authorization, tying the two together. */
  nonce: string;
};

/** Signs an install link (lifetime INSTALL_LINK_TTL_SECONDS) for the app's `app_url`. */
export async function signInstallLink(platform: Platform, input: SignInstallLinkInput): Promise<IssuedToken<InstallLinkClaims>> {
  const claims: InstallLinkClaims = {
    ...registeredClaims(platform, input.issuer, input.app.client_id, INSTALL_LINK_TTL_SECONDS),
    store_id: input.store.id,
    store_subdomain: input.store.subdomain,
    nonce: input.nonce,
  };
  return { token: await sign(platform, INSTALL_LINK_TYP, claims), claims, expiresIn: INSTALL_LINK_TTL_SECONDS };
}

/** Verifies an install link as verifySessionToken does a session token (`typ` an install link's). */
export function verifyInstallLink(
  platform: Platform,
  input: { token: string; issuer: string; audience: string },
): Promise<TokenVerification<InstallLinkClaims>> {
  return verify(platform, input, INSTALL_LINK_TYP, InstallLinkClaims);
}

/** What `POST /v1/app-store/installations/:id/session-token` answers. */
export type SessionTokenView = { session_token: string; expires_in: number; token_type: typeof SESSION_TOKEN_TYPE_URN };

/**
 * A session token for the merchant's session in an app installed (and active) in the store;
 * another store's installation, an uninstalled one, or an id that is no installation's is not
 * found.
 */
export async function createSessionToken(
  platform: Platform,
  input: { issuer: string; storeId: string; installationId: string; merchant: MerchantPrincipal },
): Promise<SessionTokenView> {
  const id = parseObjectId(input.installationId);
  const storeId = parseObjectId(input.storeId);
  const installation = id && storeId ? await installations(platform.db).findOne({ _id: id, store_id: storeId, status: 'active' }) : null;
  const app = installation ? await apps(platform.db).findOne({ _id: installation.app_id }, { projection: { client_id: 1 } }) : null;
  if (!installation || !app) throw notFound('Installation');
  const issued = await issueSessionToken(platform, { issuer: input.issuer, installation, app, merchant: input.merchant });
  return { session_token: issued.token, expires_in: issued.expiresIn, token_type: SESSION_TOKEN_TYPE_URN };
}

function registeredClaims(platform: Platform, issuer: string, audience: string, ttlSeconds: number) {
  const now = Math.floor(platform.clock.now().getTime() / 1000);
  return { iss: issuer, aud: audience, jti: randomBytes(16).toString('base64url'), iat: now, nbf: now, exp: now + ttlSeconds };
}

async function sign(platform: Platform, typ: string, claims: JWTPayload): Promise<string> {
  const { kid, privateKey } = await currentSigningKey(platform);
  return new SignJWT(claims).setProtectedHeader({ alg: SIGNING_ALG, typ, kid }).sign(privateKey);
}

/** Thrown by the key lookup when no key of ours by that kid verifies now. */
class UnknownKey extends Error {}

async function verify<C>(
  platform: Platform,
  input: { token: string; issuer: string; audience: string },
  typ: string,
  schema: z.ZodType<C>,
): Promise<TokenVerification<C>> {
  const key: JWTVerifyGetKey = async ({ kid }) => {
    if (typeof kid !== 'string' || kid.length === 0 || kid.length > 64) throw new errors.JWSInvalid('missing or unusable kid');
    const found = await verificationKey(platform, kid);
    if (!found) throw new UnknownKey();
    return found;
  };
  try {
    const { payload } = await jwtVerify(input.token, key, {
      algorithms: [SIGNING_ALG],
      typ,
      issuer: input.issuer,
      audience: input.audience,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      currentDate: platform.clock.now(),
      requiredClaims: ['iss', 'aud', 'jti', 'iat', 'nbf', 'exp'],
    });
    const claims = schema.safeParse(payload);
    return claims.success ? { ok: true, claims: claims.data } : { ok: false, reason: 'malformed' };
  } catch (err) {
    const reason = refusal(err);
    if (reason === null) throw err;
    return { ok: false, reason };
  }
}

/** The refusal a verification error stands for, or null for an error that is no refusal (the database failed). */
function refusal(err: unknown): TokenRefusal | null {
  if (err instanceof UnknownKey) return 'unknown_key';
  if (err instanceof errors.JWTExpired) return 'expired';
  if (err instanceof errors.JWTClaimValidationFailed) {
    switch (err.claim) {
      case 'typ':
        return 'wrong_type';
      case 'iss':
        return 'wrong_issuer';
      case 'aud':
        return 'wrong_audience';
      case 'nbf':
        return 'not_yet_valid';
      default:
        return 'malformed';
    }
  }
  if (err instanceof errors.JWSSignatureVerificationFailed) return 'invalid_signature';
  if (err instanceof errors.JOSEAlgNotAllowed) return 'unsupported_algorithm';
  if (err instanceof errors.JOSEError) return 'malformed';
  return null;
}
