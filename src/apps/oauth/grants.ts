import type { Context } from 'koa';
import { ObjectId } from 'mongodb';
import { sha256 } from '../../digest.js';
import { PlatformError } from '../../errors.js';
import type { Platform } from '../../platform.js';
import { consumeRateLimit } from '../../ratelimit/index.js';
import { decryptSecret, encryptSecret, equalBytes, hashToken } from '../../secrets/index.js';
import { authenticateClient } from '../partners/credentials.js';
import { isSessionLive } from '../../auth/index.js';
import { parseObjectId } from '../../ids.js';
import { isAppSuspended, recordEnforcement } from '../../security/index.js';
import { CODE_PREFIX } from '../installations/service.js';
import { requestIssuer } from './issuer.js';
import { SESSION_TOKEN_TYPE_URN, recordSessionTokenExchange, verifySessionToken } from '../session-tokens/service.js';
import { installations } from '../installations/models.js';
import { oauthCodes, oauthTokens, type TokenDocument } from './models.js';
import type { AppDocument } from '../partners/models.js';
import { findToken, issueTokens, liveInstallation, revokeTokens, type IssuedTokens } from './tokens.js';

/**
 * The token endpoint (RFC 6749 3.2, 4.1.3, 6; RFC 9700; RFC 8693 for token exchange). Its
 * answers are the RFC's, not the platform envelope: generic OAuth clients parse exactly
 * `{ access_token, token_type, expires_in, refresh_token, scope }` and
 * `{ error, error_description }` (docs/oauth.md, "Why the token endpoint does not use the
 * envelope").
 */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(description);
  }
}

const invalidRequest = (description: string) => new OAuthError(400, 'invalid_request', description);
const invalidGrant = (description: string) => new OAuthError(400, 'invalid_grant', description);

export const GRANT_AUTHORIZATION_CODE = 'authorization_code';
export const GRANT_REFRESH_TOKEN = 'refresh_token';
export const GRANT_TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';

/** A grant handler: the authenticated client's app and the request's parameters. */
export type Grant = (platform: Platform, client: AppDocument, params: Readonly<Record<string, string>>, ctx: Context) => Promise<Record<string, unknown>>;

/**
 * Answer one token request: parameters from a form or JSON body (each at most once), the
 * client authenticated (client_secret_basic or client_secret_post, one of them), a rate limit per
 * client, then the grant. Every answer has `Cache-Control: no-store`.
 */
export async function answerTokenRequest(platform: Platform, ctx: Context, grants: ReadonlyMap<string, Grant>): Promise<void> {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Pragma', 'no-cache');
  try {
    const params = readParams(ctx.request.body);
    const client = await authenticateClientRequest(platform, ctx, params);
    // A suspended app gets no token of any grant until an operator undoes the suspension (docs/operations.md, Security enforcement).
    if (await isAppSuspended(platform, client._id.toHexString())) {
      throw new OAuthError(400, 'unauthorized_client', 'app_suspended: this app is suspended by the platform and gets no tokens while it is');
    }
    try {
      await consumeRateLimit(platform, [{ bucket: `oauth-token:client:${client.client_id}`, limit: platform.config.apps.oauthRateLimit, windowSeconds: 60 }]);
    } catch (err) {
      if (err instanceof PlatformError && err.kind === 'rate_limited') {
        throw new OAuthError(429, 'temporarily_unavailable', 'Too many token requests for this client; try again later', {
          'Retry-After': String(err.extra.retryAfterSeconds ?? 60),
        });
      }
      throw err;
    }
    const grantType = params.grant_type;
    if (!grantType) throw invalidRequest('grant_type is required');
    const grant = grants.get(grantType);
    if (!grant)
      throw new OAuthError(400, 'unsupported_grant_type', `grant_type ${grantType} is not supported here (supported: ${[...grants.keys()].join(', ')})`);
    const body = await grant(platform, client, params, ctx);
    ctx.status = 200;
    ctx.body = body;
  } catch (err) {
    if (!(err instanceof OAuthError)) throw err;
    ctx.status = err.status;
    for (const [name, value] of Object.entries(err.headers)) ctx.set(name, value);
    ctx.body = { error: err.error, error_description: err.description };
    platform.log.info({ event: 'oauth.token_refused', error: err.error, request_id: (ctx.state as { requestId?: string }).requestId });
  }
}

/** RFC 6749 3.2: parameters sent without a value are treated as omitted; none may be repeated. */
function readParams(body: unknown): Record<string, string> {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw invalidRequest('The request body must be application/x-www-form-urlencoded (or a JSON object)');
  const params: [string, string][] = [];
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (Array.isArray(value)) throw invalidRequest(`${key} must not be repeated`);
    if (value === undefined || value === null || value === '') continue;
    if (typeof value !== 'string') throw invalidRequest(`${key} must be a string`);
    if (value.length > 4096) throw invalidRequest(`${key} is too long`);
    params.push([key, value]);
  }
  // Own properties only (a parameter named __proto__ is a parameter, not the object's prototype).
  return Object.fromEntries(params);
}

/** RFC 6749 5.2: 401 with a Basic challenge (for either method: the client may retry with Basic). */
const invalidClient = () =>
  new OAuthError(401, 'invalid_client', 'Client authentication failed (unknown client or wrong secret)', { 'WWW-Authenticate': 'Basic realm="emporium"' });

/** RFC 6749 2.3.1: HTTP Basic (client_secret_basic) or the body (client_secret_post), never both. */
async function authenticateClientRequest(platform: Platform, ctx: Context, params: Record<string, string>): Promise<AppDocument> {
  const header = ctx.get('Authorization');
  let clientId: string | undefined;
  let secret: string | undefined;
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (header && !basic) throw invalidClient();
  if (basic) {
    if (params.client_secret) throw invalidRequest('Use one client authentication method: HTTP Basic or client_secret in the body, not both');
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw invalidClient();
    try {
      clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
      secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
    } catch {
      throw invalidClient();
    }
    if (params.client_id && params.client_id !== clientId) throw invalidRequest('client_id in the body differs from the authenticated client');
  } else {
    clientId = params.client_id;
    secret = params.client_secret;
    if (!clientId || !secret)
      throw new OAuthError(401, 'invalid_client', 'Client authentication is required (HTTP Basic or client_id and client_secret)', {
        'WWW-Authenticate': 'Basic realm="emporium"',
      });
  }
  const app = clientId && secret ? await authenticateClient(platform, clientId, secret) : null;
  if (!app) throw invalidClient();
  return app;
}

const tokenBody = (tokens: IssuedTokens, extra: Record<string, unknown> = {}) => {
  const { ids: _ids, ...body } = tokens;
  return { ...body, ...extra };
};

/** PKCE S256 (RFC 7636 4.6): BASE64URL(SHA256(ASCII(code_verifier))) === code_challenge. */
function pkceMatches(verifier: string, challenge: string): boolean {
  const computed = sha256(verifier, 'bytes');
  const expected = Buffer.from(challenge, 'base64url');
  return equalBytes(computed, expected);
}

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/**
 * authorization_code (RFC 6749 4.1.3, RFC 7636 4.5): the code is used once, by its own client,
 * with the redirect URI and the verifier of its challenge, before it expires. A code presented a
 * second time revokes every token issued from it (RFC 6749 4.1.2).
 */
export const authorizationCodeGrant: Grant = async (platform, client, params) => {
  const { code, redirect_uri: redirectUri, code_verifier: verifier } = params;
  if (!code) throw invalidRequest('code is required');
  if (!redirectUri) throw invalidRequest('redirect_uri is required (the one the authorization used)');
  if (!verifier) throw invalidRequest('code_verifier is required (PKCE)');
  if (!VERIFIER.test(verifier)) throw invalidRequest('code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~');
  if (!code.startsWith(`${CODE_PREFIX}_`) || code.length > 100) throw invalidGrant('The authorization code is not valid');
  const now = platform.clock.now();
  const codes = oauthCodes(platform.db);
  const found = await codes.findOne({ code_hash: hashToken(code) });
  if (!found || !found.app_id.equals(client._id)) throw invalidGrant('The authorization code is not valid');
  // Single use: the first presentation takes it, whatever happens next.
  const taken = await codes.findOneAndUpdate({ _id: found._id, used_at: null }, { $set: { used_at: now } });
  if (!taken) {
    await codes.updateOne({ _id: found._id }, { $set: { replayed_at: now } });
    const revoked = await revokeTokens(platform, { code_id: found._id });
    platform.log.warn({ event: 'oauth.code_replayed', app_id: client._id.toHexString(), code_id: found._id.toHexString(), revoked });
    recordEnforcement(platform, {
      kind: 'oauth_code_replayed',
      subject: {
        app_id: client._id.toHexString(),
        installation_id: found.installation_id.toHexString(),
        store_id: found.store_id.toHexString(),
        code_id: found._id.toHexString(),
      },
      reason: `An authorization code was presented again: the ${revoked} tokens issued from it were revoked`,
    });
    throw invalidGrant('The authorization code was already used; the tokens issued from it are revoked');
  }
  if (found.expires_at <= now) throw invalidGrant('The authorization code has expired');
  if (found.redirect_uri !== redirectUri) throw invalidGrant('redirect_uri does not match the one the authorization used');
  if (!pkceMatches(verifier, found.code_challenge)) throw invalidGrant('code_verifier does not match the code_challenge');
  const installation = await liveInstallation(platform, found);
  if (!installation) throw invalidGrant('The installation this code was issued for is no longer active');
  const tokens = await issueTokens(platform, {
    installation,
    scopes: found.scopes,
    mode: 'offline',
    familyId: new ObjectId(),
    codeId: found._id,
    parentId: null,
  });
  // A replay that raced this exchange revoked nothing yet: look again now that the tokens exist.
  const after = await codes.findOne({ _id: found._id }, { projection: { replayed_at: 1 } });
  if ((after as { replayed_at?: Date } | null)?.replayed_at) {
    await revokeTokens(platform, { code_id: found._id });
    throw invalidGrant('The authorization code was already used; the tokens issued from it are revoked');
  }
  platform.log.info({ event: 'oauth.code_exchanged', app_id: client._id.toHexString(), installation_id: installation._id.toHexString() });
  return tokenBody(tokens);
};

/**
 * refresh_token (RFC 6749 6, RFC 9700 4.14.2): every use rotates the refresh token. A refresh
 * token used again is a replay and revokes its whole family, but for one retry of a lost
 * response (answerRetry). `scope` may narrow, never widen.
 */
export const refreshTokenGrant: Grant = async (platform, client, params) => {
  const { refresh_token: presented } = params;
  if (!presented) throw invalidRequest('refresh_token is required');
  const found = await findToken(platform, presented, 'refresh');
  const now = platform.clock.now();
  if (!found || !found.app_id.equals(client._id)) throw invalidGrant('The refresh token is not valid');
  if (found.revoked_at) throw invalidGrant('The refresh token has been revoked');
  if (found.expires_at <= now) throw invalidGrant('The refresh token has expired');
  let scopes = found.scopes;
  if (params.scope !== undefined) {
    const asked = [...new Set(params.scope.split(' ').filter(Boolean))].sort();
    const beyond = asked.filter((s) => !found.scopes.includes(s));
    if (asked.length === 0 || beyond.length > 0)
      throw new OAuthError(400, 'invalid_scope', `scope may only narrow the original grant (${found.scopes.join(' ')})`);
    scopes = asked;
  }
  const installation = await liveInstallation(platform, found);
  if (!installation) throw invalidGrant('The installation this token was issued for is no longer active');
  scopes = scopes.filter((s) => installation.scopes.includes(s));

  const tokens = oauthTokens(platform.db);
  const rotated = await tokens.findOneAndUpdate({ _id: found._id, used_at: null, revoked_at: null }, { $set: { used_at: now } });
  if (!rotated) return answerRetry(platform, client, found, now);
  const issued = await issueTokens(platform, { installation, scopes, mode: 'offline', familyId: found.family_id, codeId: found.code_id, parentId: found._id });
  const body = tokenBody(issued);
  const graceMs = platform.config.apps.refreshReuseGraceSeconds * 1000;
  if (graceMs > 0) {
    // Kept for the one retry, before the replay check below, so a retry either finds it or revokes the family that check sees.
    const answer: RotationAnswer = { body, access_expires_at: new Date(now.getTime() + issued.expires_in * 1000).toISOString() };
    await tokens.updateOne(
      { _id: found._id },
      {
        $set: {
          rotation_answer: encryptSecret(platform.config.secretsKeys, RETRY_PURPOSE, JSON.stringify(answer)),
          retry_until: new Date(now.getTime() + graceMs),
        },
      },
    );
  }
  // A replay that raced this rotation revoked the family (this token with it) before the new tokens existed.
  if ((await tokens.countDocuments({ _id: found._id, revoked_at: { $ne: null } })) > 0) {
    await revokeTokens(platform, { family_id: found.family_id });
    throw invalidGrant('The refresh token was already used; every token of its family is revoked');
  }
  return body;
};

const RETRY_PURPOSE = 'oauth.refresh_retry';
/** A rotation's answer, kept encrypted for its one retry: the body, and when its access token ends (for `expires_in`). */
type RotationAnswer = { body: Record<string, unknown>; access_expires_at: string };

/**
 * A used refresh token presented again. The client whose response was lost retries with it:
 * within OAUTH_REFRESH_REUSE_GRACE_SECONDS of the rotation, once, and only while the pair that
 * rotation issued is unused, it is answered that same pair (the answer kept encrypted on the
 * token), never a new one, so a leaked token buys no chain of pairs. Anything else (a second
 * retry, a retry after the grace or after the pair was used) is a replay: every token of the
 * family is revoked.
 */
async function answerRetry(platform: Platform, client: AppDocument, found: TokenDocument, now: Date): Promise<Record<string, unknown>> {
  const tokens = oauthTokens(platform.db);
  // Whoever clears the kept answer first is the one retry.
  const kept = await tokens.findOneAndUpdate(
    { _id: found._id, revoked_at: null, retry_until: { $gt: now }, rotation_answer: { $ne: null } },
    { $set: { rotation_answer: null, retry_until: null, retried_at: now } },
  );
  const successor = kept?.rotation_answer ? await tokens.findOne({ parent_id: found._id, kind: 'refresh' }) : null;
  if (kept?.rotation_answer && successor && !successor.used_at && !successor.revoked_at) {
    const answer = JSON.parse(decryptSecret(platform.config.secretsKeys, RETRY_PURPOSE, kept.rotation_answer)) as RotationAnswer;
    platform.log.info({ event: 'oauth.refresh_retried', app_id: client._id.toHexString(), family_id: found.family_id.toHexString() });
    return { ...answer.body, expires_in: Math.max(0, Math.floor((Date.parse(answer.access_expires_at) - now.getTime()) / 1000)) };
  }
  const revoked = await revokeTokens(platform, { family_id: found.family_id });
  platform.log.warn({ event: 'oauth.refresh_token_replayed', app_id: client._id.toHexString(), family_id: found.family_id.toHexString(), revoked });
  recordEnforcement(platform, {
    kind: 'refresh_token_replayed',
    subject: {
      app_id: client._id.toHexString(),
      installation_id: found.installation_id.toHexString(),
      store_id: found.store_id.toHexString(),
      family_id: found.family_id.toHexString(),
    },
    reason: `A used refresh token was presented again: the ${revoked} live tokens of its family were revoked`,
  });
  throw invalidGrant('The refresh token was already used; every token of its family is revoked');
}

export const TOKEN_TYPE_ACCESS = 'urn:ietf:params:oauth:token-type:access_token';
export const TOKEN_TYPE_ONLINE = 'urn:emporium:params:oauth:token-type:online-access-token';
export const TOKEN_TYPE_OFFLINE = 'urn:emporium:params:oauth:token-type:offline-access-token';
/** What a session token may be presented as (RFC 8693 3): an ID-token-like JWT. */
const SUBJECT_TOKEN_TYPES = new Set([SESSION_TOKEN_TYPE_URN, 'urn:ietf:params:oauth:token-type:jwt']);

/**
 * Token exchange (RFC 8693): an embedded app's backend trades the session token its frontend got
 * from the merchant's admin (a platform-signed JWT for this app, docs/oauth.md) for an access
 * token: online (the merchant user's, no refresh, ending with their session at the latest) or
 * offline (the installation's, with a refresh token; the default). A session token is exchanged
 * at most once. RFC 8693 2.2.2: a subject token that does not verify, or is unacceptable (already
 * exchanged), is `invalid_request`, with the reason.
 */
export const tokenExchangeGrant: Grant = async (platform, client, params, ctx) => {
  const { subject_token: subject, subject_token_type: subjectType } = params;
  if (!subject) throw invalidRequest('subject_token is required');
  if (!subjectType) throw invalidRequest('subject_token_type is required');
  if (!SUBJECT_TOKEN_TYPES.has(subjectType)) throw invalidRequest(`subject_token_type must be ${SESSION_TOKEN_TYPE_URN}`);
  const requested = params.requested_token_type ?? TOKEN_TYPE_OFFLINE;
  if (requested !== TOKEN_TYPE_ONLINE && requested !== TOKEN_TYPE_OFFLINE) {
    throw invalidRequest(`requested_token_type must be ${TOKEN_TYPE_ONLINE} or ${TOKEN_TYPE_OFFLINE}`);
  }
  if (params.actor_token || params.resource || params.audience || params.scope)
    throw invalidRequest('actor_token, resource, audience and scope are not supported in token exchange');
  const verified = await verifySessionToken(platform, { token: subject, issuer: requestIssuer(platform, ctx), audience: client.client_id });
  if (!verified.ok) throw invalidRequest(`subject_token is not valid: ${verified.reason.replace(/_/g, ' ')}`);
  const { claims } = verified;
  const installationId = parseObjectId(claims.installation_id);
  const sessionId = parseObjectId(claims.sid);
  const merchantId = parseObjectId(claims.sub);
  const installation = installationId ? await installations(platform.db).findOne({ _id: installationId, status: 'active' }) : null;
  if (!installation || !installation.app_id.equals(client._id) || installation.store_id.toHexString() !== claims.store_id) {
    throw invalidRequest('subject_token is not valid: the app is not installed in that store');
  }
  const sessionEnds = sessionId ? await isSessionLive(platform, sessionId) : null;
  if (!sessionEnds || !merchantId) throw invalidRequest('subject_token is not valid: the merchant session has ended');
  // Once per session token: a second exchange is a replay (docs/oauth.md, "One exchange per session token").
  if (!(await recordSessionTokenExchange(platform, claims, installation))) throw invalidRequest('subject_token is not valid: already exchanged');
  const online = requested === TOKEN_TYPE_ONLINE;
  const tokens = await issueTokens(platform, {
    installation,
    scopes: installation.scopes,
    mode: online ? 'online' : 'offline',
    familyId: new ObjectId(),
    codeId: null,
    parentId: null,
    online: online ? { merchantId, sessionId: sessionId!, sessionExpiresAt: sessionEnds } : null,
  });
  platform.log.info({
    event: 'oauth.token_exchanged',
    app_id: client._id.toHexString(),
    installation_id: installation._id.toHexString(),
    mode: online ? 'online' : 'offline',
  });
  return tokenBody(tokens, { issued_token_type: TOKEN_TYPE_ACCESS, ...(online ? { associated_user: { id: merchantId.toHexString() } } : {}) });
};
