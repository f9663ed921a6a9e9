import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { givenPublishedApp, type GivenApp } from './apps.js';
import type { Client } from './http.js';

/**
 * A partner's app as a local HTTP server, doing its side of an install from the admin's App Store
 * as docs/apps.md ("Installing from the admin") tells partners to:
 * - `GET /app?store_id&store&install_token` (the install URL): sends the merchant to the consent
 *   page with a fresh PKCE pair and state, asking for `scopes`;
 * - `GET /oauth/callback?code&state`: exchanges the code at the token endpoint, then sends the
 *   merchant back to the admin: the app's page (`/admin/stores/<id>/apps/<handle>`) when it is
 *   embedded, else its settings there; on `error=access_denied` (Cancel), to its App Store listing.
 * `platform` is the platform's origin; `app` names the published app once it exists.
 */
export class PartnerApp {
  readonly tokens: string[] = [];
  readonly callbacks: { error?: string; scope?: string }[] = [];
  app: { id: string; handle: string; clientId: string; clientSecret: string; embedded: boolean } | null = null;
  scopes: string[] = [];
  url = '';
  private server: Server | null = null;
  private readonly pending = new Map<string, { verifier: string; storeId: string }>();

  constructor(private readonly platform: string) {}

  /**
   * This server's app, published by the operator (`operatorToken`): a label printer (not embedded) asking for
   * `read_orders` and `read_products`, with `toast` and `resize`, an admin block on orders and a
   * shipping Checkout Function (`hide-express`); `overrides` replace the manifest's fields. The
   * server asks for the manifest's scopes from then on.
   */
  async publish(api: Client, operatorToken: string, overrides: Record<string, unknown> & { handle: string; name: string }): Promise<GivenApp> {
    const published = await givenPublishedApp(api, operatorToken, {
      description: 'Prints shipping labels and packing slips for your orders.',
      app_url: `${this.url}/app`,
      redirect_urls: [this.redirectUri],
      scopes: ['read_orders', 'read_products'],
      // Not embedded: it opens on its own site, and comes back to its page in the admin (…/apps/<handle>/settings).
      embedded: { enabled: false },
      bridge: { capabilities: ['toast', 'resize'] },
      extensions: [
        { kind: 'admin_ui', handle: 'order-labels', name: 'Order labels', target: 'admin.order.details', config: {} },
        {
          kind: 'checkout_function',
          handle: 'hide-express',
          name: 'Hide express for oversize parcels',
          target: 'shipping',
          config: { program: { eachKey: { operations: { preserve: [{ hide: 'express' }] } } } },
        },
      ],
      ...overrides,
    });
    this.app = {
      id: published.app.id,
      handle: overrides.handle,
      clientId: published.credentials.oauth_client_id,
      clientSecret: published.credentials.client_secret,
      embedded: published.app.published.embedded.enabled as boolean,
    };
    this.scopes = published.app.published.scopes as string[];
    return published;
  }

  get redirectUri() {
    return `${this.url}/oauth/callback`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(new URL(req.url!, this.url))
        .then((location) => (location ? res.writeHead(302, { location }).end() : res.writeHead(404).end()))
        .catch((err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err)));
    });
    await new Promise<void>((done) => this.server!.listen(0, '127.0.0.1', done));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close() {
    this.server?.close();
  }

  private async handle(url: URL): Promise<string | null> {
    const app = this.app!;
    if (url.pathname === '/app') {
      const storeId = url.searchParams.get('store_id') ?? '';
      if (!url.searchParams.get('install_token')) return null;
      const verifier = randomBytes(32).toString('base64url');
      const state = randomBytes(12).toString('base64url');
      this.pending.set(state, { verifier, storeId });
      const target = new URL('/v1/app-store/oauth/authorize', this.platform);
      target.search = new URLSearchParams({
        client_id: app.clientId,
        redirect_uri: this.redirectUri,
        response_type: 'code',
        scope: this.scopes.join(' '),
        state,
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
        store_id: storeId,
        webhook_url: `${this.url}/webhooks`,
      }).toString();
      return target.href;
    }
    if (url.pathname === '/oauth/callback') {
      const pending = this.pending.get(url.searchParams.get('state') ?? '');
      if (!pending) return null;
      this.pending.delete(url.searchParams.get('state')!);
      const admin = `${this.platform}/admin/stores/${pending.storeId}`;
      const error = url.searchParams.get('error');
      if (error) {
        this.callbacks.push({ error });
        return `${admin}/app-store/${app.id}`;
      }
      const exchanged = await fetch(new URL('/v1/app-store/oauth/token', this.platform), {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`,
        },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: url.searchParams.get('code') ?? '',
          redirect_uri: this.redirectUri,
          code_verifier: pending.verifier,
        }),
      });
      const tokens = (await exchanged.json()) as { access_token?: string; scope?: string };
      if (!tokens.access_token) throw new Error(`the token endpoint refused the code: ${JSON.stringify(tokens)}`);
      this.tokens.push(tokens.access_token);
      this.callbacks.push({ scope: tokens.scope! });
      return app.embedded ? `${admin}/apps/${app.handle}` : `${admin}/apps/${app.handle}/settings`;
    }
    return null;
  }
}
