import { z } from 'zod';
import { PlatformError } from '../../errors.js';
import type { Platform } from '../../platform.js';
import { authorize } from '../installations/service.js';
import { AuthorizeBody } from '../installations/schemas.js';
import { apps, type AppDocument } from '../partners/models.js';

/**
 * The authorization endpoint's steps (RFC 6749 4.1.1, docs/oauth.md), shared by its two callers:
 * an API client with `Authorization: Bearer` (src/apps/oauth/routes.ts) and a merchant's browser
 * through the consent page (src/apps/oauth/consent.ts). Nothing here is done twice.
 */

/** An error that goes back to the client on its redirect URI (4.1.2.1), as `error` and `error_description`. */
export class RedirectError extends Error {
  constructor(
    readonly error: string,
    message: string,
  ) {
    super(message);
  }
}

const STORE_ID = z.string().regex(/^[0-9a-f]{24}$/, 'must be a store id');

/** The endpoint's query; from a browser, `store_id` may be left for the merchant to choose. */
export const BrowserAuthorizeQuery = z.strictObject({
  client_id: z.string().min(1).max(100),
  redirect_uri: z.string().min(1).max(2048),
  store_id: STORE_ID.optional(),
  response_type: z.string().max(100).optional(),
  scope: z.string().max(2048).optional(),
  state: z.string().max(1024).optional(),
  code_challenge: z.string().max(200).optional(),
  code_challenge_method: z.string().max(20).optional(),
  webhook_url: z.string().max(2048).optional(),
});
export type BrowserAuthorizeQuery = z.infer<typeof BrowserAuthorizeQuery>;
/** An API client names the store. */
export const AuthorizeQuery = BrowserAuthorizeQuery.extend({ store_id: STORE_ID });

/** The query's parameter names, in order (the consent page's hidden fields). */
export const AUTHORIZE_PARAMETERS = Object.keys(BrowserAuthorizeQuery.shape) as (keyof BrowserAuthorizeQuery)[];

/**
 * The client and its redirect URI, the two things to know good before any error may be
 * redirected (4.1.2.1): an unknown or unpublished `client_id` is 404 `not_found`, a
 * `redirect_uri` that is not exactly one of the app's `400 invalid_redirect_uri`. Never redirected.
 */
export async function authorizationClient(platform: Platform, clientId: unknown, redirectUri: unknown): Promise<AppDocument> {
  const app = typeof clientId === 'string' && clientId.length <= 100 ? await apps(platform.db).findOne({ client_id: clientId }) : null;
  if (!app?.published) throw new PlatformError('not_found', 'not_found', 'App not found');
  if (typeof redirectUri !== 'string' || !app.published.redirect_urls.includes(redirectUri)) {
    throw new PlatformError('invalid_data', 'invalid_redirect_uri', "redirect_uri must be exactly one of the app's redirect URLs");
  }
  return app;
}

/** The authorize service's body from the query, or the RFC's error for the client. */
export function authorizeBodyOf(query: BrowserAuthorizeQuery, storeId: string): AuthorizeBody {
  if (query.response_type !== 'code') throw new RedirectError('unsupported_response_type', 'response_type must be code');
  const body = AuthorizeBody.safeParse({
    store_id: storeId,
    redirect_uri: query.redirect_uri,
    code_challenge: query.code_challenge,
    code_challenge_method: query.code_challenge_method,
    scopes: (query.scope ?? '').split(' ').filter(Boolean),
    state: query.state,
    webhook_url: query.webhook_url,
  });
  if (!body.success) throw new RedirectError('invalid_request', body.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  return body.data;
}

/**
 * `redirect_uri` (known good) with the error `err` stands for, and `state`: a RedirectError, or a
 * refusal of the authorize service (`invalid_scope` for scopes, else `invalid_request`). Anything
 * else (a rate limit, an unexpected error) is thrown again, for the caller to answer itself.
 */
export function errorRedirect(redirectUri: string, err: unknown, state: string | undefined): URL {
  const [error, description] =
    err instanceof RedirectError
      ? [err.error, err.message]
      : err instanceof PlatformError && err.kind !== 'rate_limited'
        ? [err.code === 'invalid_scope' ? 'invalid_scope' : 'invalid_request', [err.message, ...(err.extra.details ?? [])].join('; ')]
        : [null, null];
  if (!error) throw err;
  return withState(redirectUri, { error, error_description: description! }, state);
}

/** `redirect_uri` with these parameters and the client's `state` (when it sent one). */
export function withState(redirectUri: string, parameters: Record<string, string>, state: string | undefined): URL {
  const back = new URL(redirectUri);
  for (const [name, value] of Object.entries(parameters)) back.searchParams.set(name, value);
  if (state) back.searchParams.set('state', state);
  return back;
}

/**
 * The consent given: the authorize service (docs/oauth.md, Authorize) for this merchant and
 * store, answered as where the browser goes next: `redirect_uri?code=…&state=…`, or the error.
 */
export async function authorizationRedirect(
  platform: Platform,
  merchantId: string,
  storeId: string,
  app: AppDocument,
  query: BrowserAuthorizeQuery,
): Promise<URL> {
  try {
    const granted = await authorize(platform, merchantId, storeId, app._id.toHexString(), authorizeBodyOf(query, storeId));
    return withState(query.redirect_uri, { code: granted.code }, query.state);
  } catch (err) {
    return errorRedirect(query.redirect_uri, err, query.state);
  }
}
