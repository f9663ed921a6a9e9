import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import * as oauth from 'oauth4webapi';
import type { Page } from 'playwright-core';
import { useTestApp } from '../helpers/app.js';
import { givenPublishedApp, type GivenApp } from '../helpers/apps.js';
import { axeViolations, blockingViolations, describeViolations, useBrowser } from '../helpers/browser.js';
import { givenMerchant, givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { useWebProcess } from '../helpers/processes.js';

const OPERATOR = 'operator-consent-browser@example.com';
const insecure = { [oauth.allowInsecureRequests]: true } as const;

/**
 * The install in a real browser (docs/console.md): headless Chromium against the Procfile's web
 * process, and a partner's app as a local HTTP server written with an independent OAuth client
 * (oauth4webapi). The app sends the merchant to the authorization endpoint; the merchant, signed
 * out, signs in, sees the scopes, installs; the app's callback exchanges the code with PKCE.
 * Cancel gives `access_denied`; an unregistered redirect URI never redirects; the consent page
 * refuses to be framed.
 */
describe('The OAuth consent page in a browser (Chromium)', () => {
  const { app, api } = useTestApp('consent_browser', { OPERATOR_EMAILS: OPERATOR });
  const web = useWebProcess(app);
  const chromium = useBrowser();

  let partner: GivenApp;
  let shop: GivenMerchantWithStore;
  let server: Server;
  let partnerUrl = '';
  /** What the partner's app saw at its callback, latest last. */
  const callbacks: { error?: string; scope?: string; stateOk: boolean }[] = [];

  before(async () => {
    // The partner's app: /start begins an install (PKCE and state kept in memory), /callback finishes it, /frame tries to frame the consent page.
    const pending = new Map<string, string>();
    let as: oauth.AuthorizationServer | null = null;
    const discovered = async () => {
      if (!as)
        as = await oauth.processDiscoveryResponse(new URL(web.url), await oauth.discoveryRequest(new URL(web.url), { algorithm: 'oauth2', ...insecure }));
      return as;
    };
    server = createServer((req, res) => {
      void (async () => {
        const url = new URL(req.url!, partnerUrl);
        const client = { client_id: partner.credentials.oauth_client_id };
        const redirectUri = `${partnerUrl}/callback`;
        if (url.pathname === '/start') {
          const verifier = oauth.generateRandomCodeVerifier();
          const state = oauth.generateRandomState();
          pending.set(state, verifier);
          const target = new URL((await discovered()).authorization_endpoint!);
          target.search = new URLSearchParams({
            client_id: client.client_id,
            redirect_uri: url.searchParams.get('redirect_uri') ?? redirectUri,
            response_type: 'code',
            scope: 'read_products read_orders',
            state,
            code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
            code_challenge_method: 'S256',
            store_id: shop.store.id,
            webhook_url: 'https://partner.example.com/webhooks',
          }).toString();
          res.writeHead(302, { location: target.toString() }).end();
          return;
        }
        if (url.pathname === '/callback') {
          const state = url.searchParams.get('state') ?? '';
          const verifier = pending.get(state);
          if (url.searchParams.has('error')) {
            callbacks.push({ error: url.searchParams.get('error')!, stateOk: verifier !== undefined });
            res
              .writeHead(200, { 'content-type': 'text/html' })
              .end(`<!doctype html><title>Not installed</title><h1>Not installed: ${url.searchParams.get('error')}</h1>`);
            return;
          }
          const params = oauth.validateAuthResponse(await discovered(), client, url, state);
          const response = await oauth.authorizationCodeGrantRequest(
            await discovered(),
            client,
            oauth.ClientSecretBasic(partner.credentials.client_secret),
            params,
            redirectUri,
            verifier!,
            insecure,
          );
          const tokens = await oauth.processAuthorizationCodeResponse(await discovered(), client, response);
          callbacks.push({ scope: tokens.scope, stateOk: true });
          res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Installed</title><h1>Installed with ${tokens.scope}</h1>`);
          return;
        }
        if (url.pathname === '/frame') {
          res
            .writeHead(200, { 'content-type': 'text/html' })
            .end(`<!doctype html><title>Framed</title><iframe name="victim" src="${url.searchParams.get('src')}"></iframe>`);
          return;
        }
        res.writeHead(404).end();
      })().catch((err: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err));
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    partnerUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const operator = await givenMerchant(api, { email: OPERATOR });
    partner = await givenPublishedApp(api, operator.token, {
      name: 'Label Maker',
      redirect_urls: [`${partnerUrl}/callback`],
      scopes: ['read_products', 'read_orders'],
    });
    shop = await givenMerchantWithStore(api);
  });
  after(() => server?.close());

  async function signIn(page: Page, who: { email: string; password: string }) {
    await page.getByLabel('Email', { exact: true }).first().fill(who.email);
    await page.getByLabel('Password').fill(who.password);
    await Promise.all([page.waitForURL((u) => !u.pathname.startsWith('/login')), page.getByRole('button', { name: 'Sign in' }).click()]);
  }

  it('takes a signed-out merchant through sign-in and consent to an installed app that holds tokens', async () => {
    const page = await chromium.page();
    await page.goto(`${partnerUrl}/start`);
    expect(new URL(page.url()).pathname).to.equal('/login');
    expect(await page.locator('h1').innerText()).to.equal('Sign in to Emporium');
    expect(blockingViolations(await axeViolations(page)), describeViolations(blockingViolations(await axeViolations(page)))).to.deep.equal([]);

    await signIn(page, shop.merchant);
    expect(new URL(page.url()).pathname).to.equal('/v1/app-store/oauth/authorize');
    const session = (await page.context().cookies()).find((c) => c.name === 'emporium_session')!;
    expect(session).to.include({ httpOnly: true, sameSite: 'Lax', path: '/' });
    // No script on the page can read the session.
    expect(await page.evaluate<string>('document.cookie')).to.not.include('emp_session_');
    expect(await page.locator('h1').innerText()).to.equal('Install Label Maker?');
    const text = await page.locator('main').innerText();
    expect(text).to.include('See your products and collections').and.include('See your orders').and.include('Acme Apps').and.include('Test Store');
    const violations = blockingViolations(await axeViolations(page));
    expect(violations, describeViolations(violations)).to.deep.equal([]);

    await Promise.all([page.waitForURL(`${partnerUrl}/callback**`), page.getByRole('button', { name: 'Install' }).click()]);
    expect(await page.locator('h1').innerText()).to.equal('Installed with read_orders read_products');
    expect(callbacks.at(-1)).to.deep.equal({ scope: 'read_orders read_products', stateOk: true });
  });

  it('goes back with access_denied on Cancel', async () => {
    const other = await givenMerchantWithStore(api);
    const page = await chromium.page();
    await page.goto(`${web.url}/login`);
    await signIn(page, other.merchant);
    // The install starts for the shop's store: this merchant may not use it, so the page refuses without redirecting.
    const refused = await page.goto(`${partnerUrl}/start`);
    expect(refused!.status()).to.equal(403);
    expect(page.url()).to.match(new RegExp(`^${web.url}/v1/app-store/oauth/authorize`));

    const own = await chromium.page();
    await own.goto(`${partnerUrl}/start`);
    await signIn(own, shop.merchant);
    await Promise.all([own.waitForURL(`${partnerUrl}/callback**`), own.getByRole('button', { name: 'Cancel' }).click()]);
    expect(await own.locator('h1').innerText()).to.equal('Not installed: access_denied');
    expect(callbacks.at(-1)).to.deep.equal({ error: 'access_denied', stateOk: true });
  });

  it('never follows an unregistered redirect URI, and refuses to be framed', async () => {
    const page = await chromium.page();
    await page.goto(`${web.url}/login`);
    await signIn(page, shop.merchant);
    const evil = await page.goto(`${partnerUrl}/start?redirect_uri=${encodeURIComponent(`${partnerUrl}/evil`)}`);
    expect(evil!.status()).to.equal(400);
    expect(page.url()).to.match(new RegExp(`^${web.url}/`));
    expect(await page.locator('main').innerText()).to.include('redirect_uri must be exactly one');

    // The consent page itself, framed by another page: the browser refuses to render it.
    const consent = await page.goto(`${partnerUrl}/start`);
    expect(consent!.headers()['x-frame-options']).to.equal('DENY');
    expect(consent!.headers()['content-security-policy']).to.include("frame-ancestors 'none'");
    const consentUrl = page.url();
    const framing = await chromium.page();
    await framing.context().addCookies(await page.context().cookies());
    const blocked = framing.waitForEvent('response', (r) => r.url() === consentUrl);
    await framing.goto(`${partnerUrl}/frame?src=${encodeURIComponent(consentUrl)}`);
    expect((await blocked).status()).to.equal(200);
    const frame = framing.frame({ name: 'victim' })!;
    const framedText = await frame.evaluate<string>("document.body ? document.body.innerText : ''").catch(() => '');
    expect(framedText).to.not.include('Install Label Maker');
    expect(await frame.locator('button', { hasText: 'Install' }).count()).to.equal(0);
  });
});
