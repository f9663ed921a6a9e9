import { expect } from 'chai';
import { APP_WEBHOOK_TOPICS } from '../../src/apps/manifest/validate.js';
import { useTestApp } from '../helpers/app.js';
import { givenDeveloper, validManifest, type GivenDeveloper } from '../helpers/apps.js';
import { counts } from '../helpers/database.js';
import { givenMerchant } from '../helpers/factories.js';

const VALIDATE = '/v1/app-store/developers/apps/manifest/validate';

describe('App manifests (POST /v1/app-store/developers/apps/manifest/validate)', () => {
  const { app, api } = useTestApp('app-manifest');
  let dev: GivenDeveloper;
  before(async () => {
    dev = await givenDeveloper(api);
  });

  const validate = async (manifest: unknown) => {
    const res = await api.post(VALIDATE, { manifest }, { token: dev.merchant.token });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data as { ok: boolean; manifest?: Record<string, any>; issues: string[] };
  };
  const issuesOf = async (overrides: Record<string, unknown>) => {
    const result = await validate(validManifest(overrides));
    expect(result.ok, JSON.stringify(result)).to.equal(false);
    expect(result).to.not.have.property('manifest');
    return result.issues;
  };

  describe('access and body', () => {
    it('needs a merchant session (401) and a developer profile (403 developer_profile_required)', async () => {
      expect((await api.post(VALIDATE, { manifest: validManifest() })).status).to.equal(401);
      const stranger = await givenMerchant(api);
      const res = await api.post(VALIDATE, { manifest: validManifest() }, { token: stranger.token });
      expect(res.status).to.equal(403);
      expect(res.body.error.code).to.equal('developer_profile_required');
    });

    it('answers 400 in the standard envelope when the manifest is not a JSON object, or the body has other keys', async () => {
      for (const body of [{ manifest: [] }, { manifest: 'x' }, { manifest: null }, {}, { manifest: {}, extra: 1 }, [1]]) {
        const res = await api.post(VALIDATE, body, { token: dev.merchant.token });
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code).to.equal('invalid_input');
        expect(res.body.error.request_id).to.be.a('string');
      }
    });

    it('creates nothing', async () => {
      const before = await counts(app.platform.db);
      await validate(validManifest());
      await validate({ nonsense: true });
      expect(await counts(app.platform.db)).to.deep.equal(before);
    });
  });

  describe('a valid manifest', () => {
    it('is ok, normalised, with defaults filled', async () => {
      const m = validManifest({ webhooks: undefined, support_url: undefined, description: undefined });
      delete m.webhooks;
      delete m.support_url;
      delete m.description;
      const result = await validate(m);
      expect(result.ok, JSON.stringify(result.issues)).to.equal(true);
      expect(result.issues).to.deep.equal([]);
      expect(result.manifest).to.deep.equal({
        schema_version: '2026-06-05.ws13',
        name: 'Order Printer',
        handle: m.handle,
        version: '1.0.0',
        description: '',
        app_url: m.app_url,
        redirect_urls: m.redirect_urls,
        scopes: ['read_app_metadata', 'read_orders', 'read_products', 'write_app_metadata'],
        webhooks: { topics: [] },
        privacy_policy_url: 'https://example.com/privacy',
        support_url: null,
        embedded: { enabled: true, admin_path: '/' },
        bridge: { capabilities: ['api.fetch', 'resize', 'toast'] },
        extensions: [],
      });
    });

    it('sorts and dedupes scopes (a write scope brings its read) and topics, lowercases handles and URL hosts, trims names', async () => {
      const result = await validate(
        validManifest({
          name: '  Order Printer  ',
          handle: 'Order-Printer-X',
          app_url: 'https://APP.Example.COM/App?Shop=1',
          redirect_urls: ['https://App.Example.com/CB', 'http://LOCALHOST:3000/cb'],
          scopes: ['write_products', 'read_orders', 'write_products', 'read_orders'],
          webhooks: { topics: ['shop.redact', 'app.uninstalled', 'shop.redact', 'order.created'] },
          bridge: { capabilities: ['toast', 'navigation.redirect', 'toast'] },
          extensions: [{ kind: 'admin_ui', handle: 'Slip-Button', name: ' Slip ', target: 'admin.order.details', config: { label: 'Print' } }],
        }),
      );
      expect(result.ok, JSON.stringify(result.issues)).to.equal(true);
      const m = result.manifest!;
      expect(m.name).to.equal('Order Printer');
      expect(m.handle).to.equal('order-printer-x');
      expect(m.app_url).to.equal('https://app.example.com/App?Shop=1');
      expect(m.redirect_urls).to.deep.equal(['https://app.example.com/CB', 'http://localhost:3000/cb']);
      expect(m.scopes).to.deep.equal(['read_orders', 'read_products', 'write_products']);
      expect(m.webhooks.topics).to.deep.equal(['app.uninstalled', 'order.created', 'shop.redact']);
      expect(m.bridge.capabilities).to.deep.equal(['navigation.redirect', 'toast']);
      expect(m.extensions).to.deep.equal([
        { kind: 'admin_ui', handle: 'slip-button', name: 'Slip', target: 'admin.order.details', config: { label: 'Print' } },
      ]);
    });

    it('accepts every app lifecycle and compliance topic', async () => {
      const result = await validate(validManifest({ webhooks: { topics: [...APP_WEBHOOK_TOPICS] } }));
      expect(result.ok, JSON.stringify(result.issues)).to.equal(true);
      expect(result.manifest!.webhooks.topics).to.deep.equal([...APP_WEBHOOK_TOPICS].sort());
    });

    it('accepts each extension kind at its targets', async () => {
      const extensions = [
        { kind: 'admin_ui', handle: 'a', name: 'A', target: 'admin.product.details' },
        { kind: 'checkout_ui', handle: 'b', name: 'B', target: 'checkout.payment-method.after' },
        ...['coupon', 'shipping', 'payment_method', 'validation'].map((target, i) => ({
          kind: 'checkout_function',
          handle: `f-${i}`,
          name: 'F',
          target,
          config: { program: {} },
        })),
        { kind: 'theme_app_block', handle: 'c', name: 'C', target: 'section' },
        { kind: 'theme_app_block', handle: 'd', name: 'D', target: 'body' },
      ];
      const result = await validate(validManifest({ extensions }));
      expect(result.ok, JSON.stringify(result.issues)).to.equal(true);
      expect(result.manifest!.extensions.map((e: { config: unknown }) => JSON.stringify(e.config))).to.deep.equal(
        extensions.map((e) => (e.kind === 'checkout_function' ? '{"program":{}}' : '{}')),
      );
    });
  });

  describe('every problem in one pass', () => {
    it('reports all of a manifest’s problems at once, each under its path', async () => {
      const issues = await issuesOf({
        schema_version: '2025-01-01',
        handle: 'Bad Handle!',
        version: 'v1',
        redirect_urls: ['https://ok.example.com/cb', 'http://evil.example.com/cb'],
        scopes: ['read_orders', 'read_everything'],
        webhooks: { topics: ['orders.exploded'] },
        privacy_policy_url: 'http://example.com/privacy',
        embedded: { admin_path: 'no-slash' },
        surprise: true,
      });
      expect(issues).to.include.members([
        'schema_version: must be "2026-06-05.ws13"',
        'handle: must be kebab-case: letters, digits and single hyphens (stored in lower case), e.g. "order-printer"',
        'version: must be a semantic version such as 1.0.0 or 2.1.0-beta.1',
        'redirect_urls.1: must use https; plain http is allowed only to localhost, 127.0.0.0/8 or [::1]',
        'scopes.1: is not a scope of the registry: "read_everything" (docs/apps.md, Scopes)',
        'webhooks.topics.0: is not an event type or app topic: "orders.exploded" (wildcards are not accepted)',
        'privacy_policy_url: must use https',
        'embedded.admin_path: must be a path starting with "/" (not "//"), without spaces, "\\" or a fragment',
        'surprise: is not a known field',
      ]);
      expect(issues).to.have.length(9);
    });

    it('reports missing required fields each by name', async () => {
      const result = await validate({});
      expect(result.ok).to.equal(false);
      expect(result.issues).to.have.members(
        ['schema_version', 'name', 'handle', 'version', 'app_url', 'redirect_urls', 'scopes', 'privacy_policy_url'].map((f) => `${f}: is required`),
      );
    });

    it('names wrong types', async () => {
      const issues = await issuesOf({ name: 5, redirect_urls: 'https://x.example.com', scopes: {}, embedded: { enabled: 'yes' }, support_url: 3 });
      expect(issues).to.include.members([
        'name: must be a string',
        'redirect_urls: must be an array',
        'scopes: must be an array',
        'embedded.enabled: must be true or false',
        'support_url: must be a string or null',
      ]);
    });
  });

  describe('field rules', () => {
    it('name: not blank, at most 80 characters; description at most 2000', async () => {
      expect(await issuesOf({ name: '   ' })).to.deep.equal(['name: must not be blank']);
      expect(await issuesOf({ name: '' })).to.include('name: must not be empty');
      expect(await issuesOf({ name: 'x'.repeat(81) })).to.deep.equal(['name: must be at most 80 characters']);
      expect(await issuesOf({ description: 'x'.repeat(2001) })).to.deep.equal(['description: must be at most 2000 characters']);
    });

    it('handle: kebab-case, 3 to 60 characters', async () => {
      for (const handle of ['a--b', '-ab', 'ab-', 'a_b', 'a b']) expect(await issuesOf({ handle }), handle).to.have.length(1);
      expect(await issuesOf({ handle: 'ab' })).to.deep.equal(['handle: must be at least 3 characters']);
      expect(await issuesOf({ handle: 'a'.repeat(61) })).to.deep.equal(['handle: must be at most 60 characters']);
    });

    it('version: semantic versions only', async () => {
      for (const version of ['1', '1.0', '01.0.0', '1.0.0.0', 'latest']) expect(await issuesOf({ version }), version).to.have.length(1);
      for (const version of ['0.0.1', '1.2.3-beta.1', '1.2.3+build.7']) expect((await validate(validManifest({ version }))).ok, version).to.equal(true);
    });

    it('redirect_urls: 1 to 10 exact https URLs, no fragment, no credentials, no duplicates', async () => {
      expect(await issuesOf({ redirect_urls: [] })).to.deep.equal(['redirect_urls: must have at least 1 item']);
      const eleven = Array.from({ length: 11 }, (_, i) => `https://x.example.com/cb${i}`);
      expect(await issuesOf({ redirect_urls: eleven })).to.deep.equal(['redirect_urls: must have at most 10 items']);
      expect(await issuesOf({ redirect_urls: ['https://x.example.com/cb#frag'] })).to.deep.equal(['redirect_urls.0: must not contain a fragment (#...)']);
      expect(await issuesOf({ redirect_urls: ['https://user:pw@x.example.com/cb'] })).to.deep.equal([
        'redirect_urls.0: must not contain credentials (user:password@)',
      ]);
      expect(await issuesOf({ redirect_urls: ['not a url'] })).to.have.length(1);
      expect(await issuesOf({ redirect_urls: ['ftp://x.example.com/cb'] })).to.have.length(1);
      expect(await issuesOf({ redirect_urls: ['https://x.example.com/cb', 'https://X.EXAMPLE.com/cb'] })).to.deep.equal([
        'redirect_urls.1: is the same URL as redirect_urls.0',
      ]);
    });

    it('redirect_urls and app_url: plain http only to a loopback host', async () => {
      const result = await validate(validManifest({ app_url: 'http://127.0.0.1:8080/', redirect_urls: ['http://localhost/cb', 'http://[::1]:9000/cb'] }));
      expect(result.ok, JSON.stringify(result.issues)).to.equal(true);
      expect(await issuesOf({ app_url: 'http://app.example.com/' })).to.have.length(1);
    });

    it('scopes: not empty, each in the registry', async () => {
      expect(await issuesOf({ scopes: [] })).to.deep.equal(['scopes: must have at least 1 item']);
      expect(await issuesOf({ scopes: ['read_products', 'READ_ORDERS', 'admin'] })).to.deep.equal([
        'scopes.1: is not a scope of the registry: "READ_ORDERS" (docs/apps.md, Scopes)',
        'scopes.2: is not a scope of the registry: "admin" (docs/apps.md, Scopes)',
      ]);
    });

    it('webhooks.topics: known event types or app topics only, no wildcards, no other keys', async () => {
      expect(await issuesOf({ webhooks: { topics: ['orders.*'] } })).to.have.length(1);
      expect(await issuesOf({ webhooks: { topics: ['*'] } })).to.have.length(1);
      expect(await issuesOf({ webhooks: { topics: [], url: 'https://x.example.com' } })).to.deep.equal(['webhooks.url: is not a known field']);
    });

    it('privacy_policy_url is required and https; support_url https or null', async () => {
      expect(await issuesOf({ privacy_policy_url: 'http://localhost/privacy' })).to.deep.equal(['privacy_policy_url: must use https']);
      expect(await issuesOf({ support_url: 'http://localhost/support' })).to.deep.equal(['support_url: must use https']);
      expect((await validate(validManifest({ support_url: null }))).manifest!.support_url).to.equal(null);
    });

    it('embedded: enabled and admin_path starting with one "/"', async () => {
      const result = await validate(validManifest({ embedded: { enabled: false, admin_path: '/admin/home?x=1' } }));
      expect(result.manifest!.embedded).to.deep.equal({ enabled: false, admin_path: '/admin/home?x=1' });
      expect(await issuesOf({ embedded: { admin_path: '//evil.example.com' } })).to.have.length(1);
      expect(await issuesOf({ embedded: { admin_path: '/a#b' } })).to.have.length(1);
      expect(await issuesOf({ embedded: { frame: true } })).to.deep.equal(['embedded.frame: is not a known field']);
    });

    it('bridge.capabilities: only the known capabilities', async () => {
      expect(await issuesOf({ bridge: { capabilities: ['api.fetch', 'api.write'] } })).to.deep.equal([
        'bridge.capabilities.1: must be one of api.fetch, toast, resize, navigation.redirect',
      ]);
      expect((await validate(validManifest({ bridge: { capabilities: [] } }))).manifest!.bridge.capabilities).to.deep.equal([]);
    });

    it('extensions: known kinds, unique handles, kind-specific targets, a bounded config, no other keys', async () => {
      const issues = await issuesOf({
        extensions: [
          { kind: 'admin_ui', handle: 'one', name: 'One', target: 'checkout.thing' },
          { kind: 'checkout_ui', handle: 'two', name: 'Two', target: 'admin.thing' },
          { kind: 'checkout_function', handle: 'three', name: 'Three', target: 'totals', config: { program: {} } },
          { kind: 'theme_app_block', handle: 'four', name: 'Four', target: 'header' },
          { kind: 'payment_gateway', handle: 'five', name: 'Five', target: 'x' },
          { kind: 'admin_ui', handle: 'ONE', name: 'Again', target: 'admin.x', config: { big: 'x'.repeat(9000) } },
          { kind: 'admin_ui', handle: 'seven', name: 'Seven', target: 'admin.x', config: [], wasm: 'AGFzbQ' },
          { kind: 'admin_ui', handle: 'eight' },
          { kind: 'admin_ui', handle: 'nine', name: 'Nine', target: 'admin.x', config: { $where: 'x', 'a.b': 1, ok: { $gt: 1 } } },
        ],
      });
      expect(issues).to.have.members([
        'extensions.0.target: must be an admin target: "admin." and lowercase dotted segments, e.g. "admin.product.details"',
        'extensions.1.target: must be a checkout target: "checkout." and lowercase dotted segments, e.g. "checkout.payment-method.after"',
        'extensions.2.target: must be one of coupon, payment_method, shipping, validation (Checkout Functions only advise)',
        'extensions.3.target: must be one of body, section',
        'extensions.4.kind: must be one of admin_ui, checkout_ui, checkout_function, theme_app_block',
        'extensions.5.handle: is the same handle as extensions.0.handle',
        'extensions.5.config: must be at most 8192 bytes as JSON (it is 9010)',
        'extensions.6.config: must be an object',
        'extensions.6.wasm: is not a known field',
        'extensions.7.name: is required',
        'extensions.7.target: is required',
        'extensions.8.config.$where: keys must not start with "$" or contain "." or NUL characters',
        'extensions.8.config.a.b: keys must not start with "$" or contain "." or NUL characters',
        'extensions.8.config.ok.$gt: keys must not start with "$" or contain "." or NUL characters',
      ]);
    });

    it('the whole manifest: at most 64 KiB', async () => {
      const extensions = Array.from({ length: 9 }, (_, i) => ({
        kind: 'admin_ui',
        handle: `e${i}`,
        name: 'E',
        target: 'admin.x',
        config: { blob: 'x'.repeat(8000) },
      }));
      const issues = await issuesOf({ extensions });
      expect(issues).to.have.length(1);
      expect(issues[0]).to.match(/^manifest: must be at most 65536 bytes as JSON \(it is \d+\)$/);
    });
  });
});
