import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { expectCreated, givenMerchant, unique, type GivenMerchant, type GivenMerchantWithStore } from './factories.js';
import type { Client } from './http.js';

/** A valid app manifest (schema 2026-06-05.ws13) with a fresh handle; `overrides` replace top-level fields. */
export function validManifest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const handle = `test-app-${unique()}`;
  return {
    schema_version: '2026-06-05.ws13',
    name: 'Order Printer',
    handle,
    version: '1.0.0',
    description: 'Prints packing slips for orders.',
    app_url: `https://${handle}.example.com/app`,
    redirect_urls: [`https://${handle}.example.com/oauth/callback`],
    scopes: ['read_orders', 'read_products', 'write_app_metadata'],
    webhooks: { topics: ['app.uninstalled'] },
    privacy_policy_url: 'https://example.com/privacy',
    support_url: 'https://example.com/support',
    ...overrides,
  };
}

export const DEVELOPER_PROFILE = {
  name: 'Acme Apps',
  contact_email: 'apps@example.com',
  website_url: 'https://acme.example.com',
  support_url: 'https://acme.example.com/support',
  privacy_policy_url: 'https://acme.example.com/privacy',
};

export type GivenDeveloper = { merchant: GivenMerchant; profile: Record<string, any> };

/** A new merchant account with a developer profile. */
export async function givenDeveloper(api: Client, overrides: Record<string, unknown> = {}): Promise<GivenDeveloper> {
  const merchant = await givenMerchant(api);
  const res = await api.post('/v1/app-store/developers/register', { ...DEVELOPER_PROFILE, ...overrides }, { token: merchant.token });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return { merchant, profile: res.body.data };
}

export type AppCredentials = { oauth_client_id: string; client_secret: string; api_key: string };
/** `webhookSecret`: the app's webhook signing secret, shown once at submission. */
export type GivenApp = { app: Record<string, any>; credentials: AppCredentials; webhookSecret: string; developer: GivenDeveloper };

/** A developer's submitted (not yet reviewed) app. */
export async function givenSubmittedApp(api: Client, manifestOverrides: Record<string, unknown> = {}, developer?: GivenDeveloper): Promise<GivenApp> {
  const dev = developer ?? (await givenDeveloper(api));
  const res = await api.post('/v1/app-store/developers/apps', { manifest: validManifest(manifestOverrides) }, { token: dev.merchant.token });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return { app: res.body.data.app, credentials: res.body.data.credentials, webhookSecret: res.body.data.webhook_signing_secret, developer: dev };
}

/**
 * A published app: a new developer submits a valid manifest (with `manifestOverrides`) and an
 * operator (`operatorToken`: the session of an account in OPERATOR_EMAILS) approves it.
 * `app` is the partner's view after approval.
 */
export async function givenPublishedApp(api: Client, operatorToken: string, manifestOverrides: Record<string, unknown> = {}): Promise<GivenApp> {
  const submitted = await givenSubmittedApp(api, manifestOverrides);
  const approve = await api.post(`/v1/operations/app-reviews/${submitted.app.latest_version.id}/approve`, undefined, { token: operatorToken });
  expect(approve.status, JSON.stringify(approve.body)).to.equal(200);
  const app = await api.get(`/v1/app-store/developers/apps/${submitted.app.id}`, { token: submitted.developer.merchant.token });
  expect(app.body.data.status).to.equal('published');
  return { ...submitted, app: app.body.data };
}

export type InstallOptions = { scopes: string[]; webhookUrl?: string };
export type Authorized = { installationId: string; code: string; verifier: string; redirectUri: string };

/**
 * The merchant's consent (spec 2.1): authorize `partner`'s published app into `shop` with a
 * fresh PKCE verifier, the app's first redirect URL and `webhookUrl` (a placeholder partner URL
 * by default). The installation exists from then on.
 */
export async function authorizeApp(
  api: Client,
  partner: GivenApp,
  shop: GivenMerchantWithStore,
  { scopes, webhookUrl = 'https://partner.example.com/webhooks' }: InstallOptions,
): Promise<Authorized> {
  const verifier = randomBytes(32).toString('base64url');
  const redirectUri = partner.app.published.redirect_urls[0] as string;
  const res = await api.post(
    `/v1/app-store/apps/${partner.app.id}/oauth/authorize`,
    {
      store_id: shop.store.id,
      redirect_uri: redirectUri,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      scopes,
      state: 'st',
      webhook_url: webhookUrl,
    },
    { token: shop.merchant.token },
  );
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return { installationId: res.body.data.installation.id as string, code: res.body.data.code as string, verifier, redirectUri };
}

/** The token request that exchanges an authorization's code (with its PKCE verifier and the app's credentials). */
export const codeExchange = (partner: GivenApp, granted: Authorized) => ({
  grant_type: 'authorization_code',
  code: granted.code,
  redirect_uri: granted.redirectUri,
  code_verifier: granted.verifier,
  client_id: partner.credentials.oauth_client_id,
  client_secret: partner.credentials.client_secret,
});

/** The token endpoint's answer to an authorization's code: the access and refresh tokens. */
export async function exchangeCode(api: Client, partner: GivenApp, granted: Authorized): Promise<{ access_token: string; refresh_token: string }> {
  const tokens = await api.post('/v1/app-store/oauth/token', codeExchange(partner, granted));
  expect(tokens.status, JSON.stringify(tokens.body)).to.equal(200);
  return tokens.body;
}

/** authorizeApp, then its code exchanged at the token endpoint: the installation and its access token. */
export async function installApp(
  api: Client,
  partner: GivenApp,
  shop: GivenMerchantWithStore,
  options: InstallOptions,
): Promise<{ installationId: string; token: string }> {
  const granted = await authorizeApp(api, partner, shop, options);
  return { installationId: granted.installationId, token: (await exchangeCode(api, partner, granted)).access_token };
}

/**
 * A published app `handle` whose manifest declares a theme app block for each of `blocks`
 * (`@app/<handle>/<block>` in a theme), each with `config`; install it in a store with
 * `installBlocks(api, partner, shop)`. One per handle in a test file (handles are unique).
 */
export function givenAppBlockApp(
  api: Client,
  operatorToken: string,
  handle: string,
  blocks: string[],
  config: Record<string, unknown> = {},
): Promise<GivenApp> {
  return givenPublishedApp(api, operatorToken, {
    handle,
    app_url: `https://${handle}.example.com/app`,
    redirect_urls: [`https://${handle}.example.com/oauth/callback`],
    extensions: blocks.map((block) => ({ kind: 'theme_app_block', handle: block, name: block, target: 'section', config })),
  });
}

/** The merchant's consent to `partner` in `shop`: its theme app blocks start enabled there. Answers the installation id. */
export async function installBlocks(api: Client, partner: GivenApp, shop: GivenMerchantWithStore): Promise<string> {
  return (await authorizeApp(api, partner, shop, { scopes: ['read_products'] })).installationId;
}

/**
 * A merchant's rating of a published app in the App Store (a app rating: stars, an optional
 * title, a text) for `shop`'s store, which must have the app installed, or have had it: four
 * stars unless `body` says otherwise. The review as its author sees it.
 */
export const givenAppRating = (api: Client, shop: GivenMerchantWithStore, partner: GivenApp, body: Record<string, unknown> = {}): Promise<any> =>
  expectCreated(
    api.post(
      `/v1/app-store/apps/${partner.app.id}/reviews`,
      { store_id: shop.store.id, rating: 4, body: 'Does the job.', ...body },
      { token: shop.merchant.token },
    ),
  );
