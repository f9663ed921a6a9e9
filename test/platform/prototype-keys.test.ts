import { expect } from 'chai';
import { useTestApp } from '../helpers/app.js';
import { givenPublishedApp, installApp, type GivenApp } from '../helpers/apps.js';
import { givenMerchant, givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { bundleOf } from '../helpers/theme-uploads.js';
import { inlineAsset } from '../helpers/themes.js';

const OPERATOR = 'op-proto-keys@example.com';
/** Names that a plain object answers from its prototype. */
const PROTOTYPE_NAMES = [
  'constructor',
  'toString',
  'hasOwnProperty',
  '__proto__',
  'valueOf',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
];

/**
 * Issue 21, part 6: a name the client chooses never reaches a plain object's prototype. Each of
 * these answered 500 (or read a platform object) before lookups went through Maps and
 * Object.hasOwn; `emporium/no-open-key-lookup` (test/platform/architecture.test.ts) keeps it so.
 */
describe('Client-chosen names that are Object.prototype members', () => {
  const { api } = useTestApp('prototype_keys', { OPERATOR_EMAILS: OPERATOR });
  let shop: GivenMerchantWithStore;
  let partner: GivenApp;
  let appToken: string;

  before(async () => {
    const operator = await givenMerchant(api, { email: OPERATOR });
    shop = await givenMerchantWithStore(api);
    partner = await givenPublishedApp(api, operator.token, { scopes: ['read_products'] });
    appToken = (await installApp(api, partner, shop, { scopes: ['read_products'] })).token;
  });

  it('POST /v1/app-store/oauth/token: a grant_type such as constructor is unsupported_grant_type (400), for a form and for JSON', async () => {
    const basic = `Basic ${Buffer.from(`${partner.credentials.oauth_client_id}:${partner.credentials.client_secret}`).toString('base64')}`;
    for (const name of PROTOTYPE_NAMES) {
      for (const path of ['/v1/app-store/oauth/token', '/v1/app-store/oauth/token-exchange']) {
        const form = await api.send('POST', path, `grant_type=${encodeURIComponent(name)}`, {
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
        });
        expect([form.status, form.body.error], `${path} form grant_type=${name}: ${JSON.stringify(form.body)}`).to.deep.equal([400, 'unsupported_grant_type']);
        const json = await api.send('POST', path, JSON.stringify({ grant_type: name }), {
          headers: { 'content-type': 'application/json', authorization: basic },
        });
        expect([json.status, json.body.error], `${path} JSON grant_type=${name}: ${JSON.stringify(json.body)}`).to.deep.equal([400, 'unsupported_grant_type']);
        // The answer names the supported grants, never a platform object.
        expect(json.body.error_description).to.match(/^grant_type \S+ is not supported here \(supported: [a-z_:.-]+(, [a-z_:.-]+)*\)$/);
      }
    }
  });

  it('POST /v1/themes/packages/upload: an asset content_type such as constructor is a validation issue (400), not a 500', async () => {
    for (const name of PROTOTYPE_NAMES) {
      const bundle = bundleOf('aurora');
      bundle.renderer.assets.push(inlineAsset('assets/extra.css', name, 'body{}'));
      const res = await api.post('/v1/themes/packages/upload', { bundle, submission_mode: 'private_install' }, { token: shop.merchant.token });
      expect(res.status, `content_type ${name}: ${JSON.stringify(res.body)}`).to.equal(400);
      expect(res.body.error.details.join('\n'), name).to.match(/renderer\.assets\.\d+\.content_type/);
    }
  });

  it('POST /v1/app-store/bridge/fetch: /constructor and other prototype names are not read paths (400 invalid_bridge_path)', async () => {
    for (const name of PROTOTYPE_NAMES.filter((n) => /^[A-Za-z0-9_-]+$/.test(n))) {
      const res = await api.post('/v1/app-store/bridge/fetch', { method: 'GET', path: `/${name}`, store_id: shop.store.id }, { token: appToken });
      expect([res.status, res.body.error?.code], `/${name}: ${JSON.stringify(res.body)}`).to.deep.equal([400, 'invalid_bridge_path']);
    }
    // A query key that is a prototype name is a plain key: refused only because products takes no such parameter.
    const query = await api.post(
      '/v1/app-store/bridge/fetch',
      { method: 'GET', path: '/products?constructor=1', store_id: shop.store.id },
      { token: appToken },
    );
    expect([query.status, query.body.data?.status, query.body.data?.error?.code], JSON.stringify(query.body)).to.deep.equal([200, 400, 'invalid_input']);
  });
});
