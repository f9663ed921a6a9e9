import { expect } from 'chai';
import { authenticateClient } from '../../src/apps/partners/credentials.js';
import { findPublishedApp } from '../../src/apps/app-store/service.js';
import { hashToken } from '../../src/secrets/index.js';
import { useTestApp } from '../helpers/app.js';
import { DEVELOPER_PROFILE, givenDeveloper, givenPublishedApp, givenSubmittedApp, validManifest } from '../helpers/apps.js';
import { findPlaintext } from '../helpers/database.js';
import { givenMerchant, type GivenMerchant } from '../helpers/factories.js';

const REGISTER = '/v1/app-store/developers/register';
const APPS = '/v1/app-store/developers/apps';
const REVIEWS = '/v1/operations/app-reviews';
const CATALOG = '/v1/app-store/apps';
const OPERATOR_EMAIL = 'operator-apps@example.com';

describe('App partners, submission, review and catalog', () => {
  const { app, api } = useTestApp('app-partners', { OPERATOR_EMAILS: `someone@example.com, ${OPERATOR_EMAIL.toUpperCase()}` });
  let operator: GivenMerchant;
  before(async () => {
    operator = await givenMerchant(api, { email: OPERATOR_EMAIL });
  });

  const asOperator = () => ({ token: operator.token });
  const approve = (versionId: string) => api.post(`${REVIEWS}/${versionId}/approve`, undefined, asOperator());
  const reject = (versionId: string, reasons: string[]) => api.post(`${REVIEWS}/${versionId}/reject`, { reasons }, asOperator());

  describe('GET|POST /v1/app-store/developers/register', () => {
    it('needs a merchant session', async () => {
      expect((await api.get(REGISTER)).status).to.equal(401);
      expect((await api.post(REGISTER, DEVELOPER_PROFILE)).status).to.equal(401);
    });

    it('answers 404 developer_profile_not_found before registering, then creates (201) and replaces (200) the profile', async () => {
      const merchant = await givenMerchant(api);
      const none = await api.get(REGISTER, { token: merchant.token });
      expect(none.status).to.equal(404);
      expect(none.body.error.code).to.equal('developer_profile_not_found');
      const created = await api.post(REGISTER, { ...DEVELOPER_PROFILE, contact_email: 'Apps@Example.COM' }, { token: merchant.token });
      expect(created.status).to.equal(201);
      expect(created.body.data).to.have.all.keys('id', 'name', 'contact_email', 'website_url', 'support_url', 'privacy_policy_url', 'created_at', 'updated_at');
      expect(created.body.data).to.include({ name: 'Acme Apps', contact_email: 'apps@example.com', website_url: 'https://acme.example.com/' });
      const { website_url: _omit, ...withoutWebsite } = DEVELOPER_PROFILE;
      const updated = await api.post(REGISTER, { ...withoutWebsite, name: 'Acme Apps Ltd' }, { token: merchant.token });
      expect(updated.status).to.equal(200);
      expect(updated.body.data).to.include({ id: created.body.data.id, name: 'Acme Apps Ltd', website_url: null, created_at: created.body.data.created_at });
      expect((await api.get(REGISTER, { token: merchant.token })).body.data).to.deep.equal(updated.body.data);
      expect(await app.platform.db.collection('developers').countDocuments({ name: /^Acme Apps Ltd$/ })).to.equal(1);
    });

    it('refuses unknown keys, a bad email, missing fields and URLs that are not https', async () => {
      const merchant = await givenMerchant(api);
      const bad = async (body: Record<string, unknown>) => {
        const res = await api.post(REGISTER, body, { token: merchant.token });
        expect(res.status, JSON.stringify(body)).to.equal(400);
        return res.body.error.details as string[];
      };
      expect(await bad({ ...DEVELOPER_PROFILE, admin: true })).to.deep.equal(['body: Unrecognized key: "admin"']);
      expect(await bad({ ...DEVELOPER_PROFILE, contact_email: 'nope' })).to.deep.equal(['body.contact_email: must be an email address']);
      expect(await bad({ name: 'x' })).to.have.length(3);
      expect(
        await bad({
          ...DEVELOPER_PROFILE,
          support_url: 'http://acme.example.com/support',
          privacy_policy_url: 'javascript:alert(1)',
          website_url: 'https://u:p@acme.example.com',
        }),
      ).to.have.members([
        'body.support_url: must use https',
        'body.privacy_policy_url: must use https',
        'body.website_url: must not contain credentials (user:password@)',
      ]);
      expect((await api.get(REGISTER, { token: merchant.token })).status).to.equal(404);
    });
  });

  describe('POST /v1/app-store/developers/apps (submission)', () => {
    it('needs a developer profile', async () => {
      const merchant = await givenMerchant(api);
      const res = await api.post(APPS, { manifest: validManifest() }, { token: merchant.token });
      expect(res.status).to.equal(403);
      expect(res.body.error.code).to.equal('developer_profile_required');
      expect((await api.get(APPS, { token: merchant.token })).status).to.equal(403);
    });

    it('creates a submitted app with version 1 in review and answers its credentials once', async () => {
      const dev = await givenDeveloper(api);
      const manifest = validManifest({ handle: 'Shout-Out-App' });
      const res = await api.post(APPS, { manifest }, { token: dev.merchant.token });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const { app: created, credentials } = res.body.data;
      expect(credentials).to.have.all.keys('oauth_client_id', 'client_secret', 'api_key');
      expect(credentials.oauth_client_id).to.match(/^emp_ci_[0-9a-f]{32}$/);
      expect(credentials.client_secret).to.match(/^emp_cs_[A-Za-z0-9_-]{43}$/);
      expect(credentials.api_key).to.match(/^emp_ak_[A-Za-z0-9_-]{43}$/);
      expect(created).to.include({
        handle: 'shout-out-app',
        name: 'Order Printer',
        status: 'submitted',
        client_id: credentials.oauth_client_id,
        version_count: 1,
        published: null,
        published_at: null,
        published_version_id: null,
      });
      expect(created.secrets.client_secret.prefix).to.equal(credentials.client_secret.slice(0, 11));
      expect(created.secrets.api_key.prefix).to.equal(credentials.api_key.slice(0, 11));
      expect(created.latest_version).to.include({ number: 1, status: 'submitted', reviewed_at: null });
      expect(created.latest_version.manifest.handle).to.equal('shout-out-app');
      // Never again: not in the app's GET, nor its list.
      const got = await api.get(`${APPS}/${created.id}`, { token: dev.merchant.token });
      expect(got.body.data).to.deep.equal(created);
      const text = JSON.stringify([got.body, (await api.get(APPS, { token: dev.merchant.token })).body]);
      expect(text).to.not.include(credentials.client_secret);
      expect(text).to.not.include(credentials.api_key);
      expect(text).to.not.include(hashToken(credentials.api_key));
      expect(text).to.not.include(dev.merchant.id);
    });

    it('stores only hash metadata: the database and the logs hold no plaintext secret', async () => {
      const { app: created, credentials } = await givenSubmittedApp(api);
      const stored = await app.platform.db.collection('apps').findOne({ client_id: credentials.oauth_client_id });
      expect(stored!.client_secret).to.have.all.keys('algorithm', 'hash', 'prefix', 'created_at');
      expect(stored!.client_secret).to.include({
        algorithm: 'sha256',
        hash: hashToken(credentials.client_secret),
        prefix: credentials.client_secret.slice(0, 11),
      });
      expect(stored!.api_key).to.include({ algorithm: 'sha256', hash: hashToken(credentials.api_key) });
      expect((await api.post(`${APPS}/${created.id}/api-key`)).status).to.equal(401);
      for (const secret of [credentials.client_secret, credentials.api_key]) {
        expect(await findPlaintext(app.platform.db, secret)).to.deep.equal([]);
        expect(await findPlaintext(app.platform.db, secret.slice(11))).to.deep.equal([]);
        expect(app.logLines.filter((l) => l.includes(secret) || l.includes(secret.slice(11)))).to.deep.equal([]);
      }
    });

    it('keeps a show-once secret out of the database and logs through an idempotent retry too', async () => {
      const dev = await givenDeveloper(api);
      const body = { manifest: validManifest() };
      const headers = { 'idempotency-key': 'submit-once-1' };
      const first = await api.post(APPS, body, { token: dev.merchant.token, headers });
      const again = await api.post(APPS, body, { token: dev.merchant.token, headers });
      expect(first.status).to.equal(201);
      expect(again.status).to.equal(201);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.body).to.deep.equal(first.body);
      expect(await app.platform.db.collection('apps').countDocuments({ handle: body.manifest.handle })).to.equal(1);
      for (const secret of [first.body.data.credentials.client_secret, first.body.data.credentials.api_key]) {
        expect(await findPlaintext(app.platform.db, secret)).to.deep.equal([]);
        expect(app.logLines.some((l) => l.includes(secret))).to.equal(false);
      }
    });

    it('answers 400 invalid_manifest with validate’s issues as details', async () => {
      const dev = await givenDeveloper(api);
      const manifest = validManifest({ scopes: ['read_all'], redirect_urls: ['http://example.com/cb'] });
      const res = await api.post(APPS, { manifest }, { token: dev.merchant.token });
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('invalid_manifest');
      const validated = await api.post(`${APPS}/manifest/validate`, { manifest }, { token: dev.merchant.token });
      expect(res.body.error.details).to.deep.equal(validated.body.data.issues);
      expect(res.body.error.details).to.have.length(2);
      expect(await app.platform.db.collection('apps').countDocuments({ handle: manifest.handle })).to.equal(0);
    });

    it('answers 409 app_handle_taken for a handle in use, in any case', async () => {
      const { app: first } = await givenSubmittedApp(api);
      const dev = await givenDeveloper(api);
      const res = await api.post(APPS, { manifest: validManifest({ handle: first.handle.toUpperCase() }) }, { token: dev.merchant.token });
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('app_handle_taken');
    });
  });

  describe('a partner’s own apps', () => {
    it('lists only the caller’s apps, paginated', async () => {
      const dev = await givenDeveloper(api);
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await givenSubmittedApp(api, {}, dev)).app.id);
      await givenSubmittedApp(api); // another partner's
      const first = await api.get(`${APPS}?limit=2`, { token: dev.merchant.token });
      expect(first.status).to.equal(200);
      expect(first.body.data.map((a: { id: string }) => a.id)).to.deep.equal(ids.slice(0, 2));
      const second = await api.get(`${APPS}?limit=2&cursor=${first.body.page.next_cursor}`, { token: dev.merchant.token });
      expect(second.body.data.map((a: { id: string }) => a.id)).to.deep.equal(ids.slice(2));
      expect(second.body.page.next_cursor).to.equal(null);
      expect(second.body.data[0].latest_version.number).to.equal(1);
    });

    it('hides another partner’s app (404) from GET, new versions and key rotation', async () => {
      const { app: theirs, credentials } = await givenSubmittedApp(api);
      const other = await givenDeveloper(api);
      const as = { token: other.merchant.token };
      for (const res of [
        await api.get(`${APPS}/${theirs.id}`, as),
        await api.post(`${APPS}/${theirs.id}/versions`, { manifest: validManifest({ handle: theirs.handle }) }, as),
        await api.post(`${APPS}/${theirs.id}/api-key`, undefined, as),
        await api.get(`${APPS}/not-an-id`, as),
      ]) {
        expect(res.status).to.equal(404);
        expect(res.body.error.code).to.equal('not_found');
      }
      const stored = await app.platform.db.collection('apps').findOne({ client_id: credentials.oauth_client_id });
      expect(stored!.api_key.hash).to.equal(hashToken(credentials.api_key));
      expect(stored!.version_count).to.equal(1);
    });
  });

  describe('POST /v1/app-store/developers/apps/:id/api-key', () => {
    it('returns a new show-once key; the old one stops matching', async () => {
      const { app: mine, credentials, developer } = await givenSubmittedApp(api);
      const res = await api.post(`${APPS}/${mine.id}/api-key`, undefined, { token: developer.merchant.token });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.have.all.keys('app_id', 'api_key', 'prefix', 'created_at');
      const fresh = res.body.data.api_key as string;
      expect(fresh)
        .to.match(/^emp_ak_/)
        .and.not.equal(credentials.api_key);
      const stored = await app.platform.db.collection('apps').findOne({ client_id: credentials.oauth_client_id });
      expect(stored!.api_key.hash).to.equal(hashToken(fresh));
      expect(stored!.api_key.hash).to.not.equal(hashToken(credentials.api_key));
      expect(await findPlaintext(app.platform.db, fresh)).to.deep.equal([]);
      expect(app.logLines.some((l) => l.includes(fresh))).to.equal(false);
      const after = await api.get(`${APPS}/${mine.id}`, { token: developer.merchant.token });
      expect(after.body.data.secrets.api_key.prefix).to.equal(fresh.slice(0, 11));
      // The client secret is untouched.
      expect(await authenticateClient(app.platform, credentials.oauth_client_id, credentials.client_secret)).to.not.equal(null);
    });
  });

  describe('authenticateClient (for the OAuth token endpoint)', () => {
    it('finds the app by client id and secret, and nothing for a wrong secret or unknown id', async () => {
      const { app: mine, credentials } = await givenSubmittedApp(api);
      const found = await authenticateClient(app.platform, credentials.oauth_client_id, credentials.client_secret);
      expect(found?._id.toHexString()).to.equal(mine.id);
      expect(await authenticateClient(app.platform, credentials.oauth_client_id, credentials.api_key)).to.equal(null);
      expect(await authenticateClient(app.platform, credentials.oauth_client_id, `${credentials.client_secret}x`)).to.equal(null);
      expect(await authenticateClient(app.platform, 'emp_ci_unknown', credentials.client_secret)).to.equal(null);
    });
  });

  describe('review (/v1/operations/app-reviews)', () => {
    it('is for operators only: 401 without a session, 403 operator_required for other merchants', async () => {
      const { app: submitted, developer } = await givenSubmittedApp(api);
      const versionId = submitted.latest_version.id;
      expect((await api.get(REVIEWS)).status).to.equal(401);
      for (const res of [
        await api.get(REVIEWS, { token: developer.merchant.token }),
        await api.get(`${REVIEWS}/${versionId}`, { token: developer.merchant.token }),
        await api.post(`${REVIEWS}/${versionId}/approve`, undefined, { token: developer.merchant.token }),
        await api.post(`${REVIEWS}/${versionId}/reject`, { reasons: ['no'] }, { token: developer.merchant.token }),
      ]) {
        expect(res.status).to.equal(403);
        expect(res.body.error.code).to.equal('operator_required');
      }
    });

    it('lists submitted versions (default) with their app and partner, by status, paginated', async () => {
      const a = await givenSubmittedApp(api);
      const b = await givenSubmittedApp(api);
      const all: string[] = [];
      let cursor: string | null = null;
      do {
        const res: {
          body: {
            data: { id: string; status: string; manifest?: unknown; app: { id: string }; developer: { name: string } }[];
            page: { next_cursor: string | null };
          };
        } = await api.get(`${REVIEWS}?limit=2${cursor ? `&cursor=${cursor}` : ''}`, asOperator());
        for (const item of res.body.data) {
          expect(item.status).to.equal('submitted');
          expect(item).to.not.have.property('manifest');
          expect(item.developer.name).to.equal('Acme Apps');
          all.push(item.app.id);
        }
        cursor = res.body.page.next_cursor;
      } while (cursor);
      expect(all).to.include.members([a.app.id, b.app.id]);
      await approve(a.app.latest_version.id);
      const approved = await api.get(`${REVIEWS}?status=approved`, asOperator());
      expect(approved.body.data.map((v: { app: { id: string } }) => v.app.id)).to.include(a.app.id);
      const pending = await api.get(REVIEWS, asOperator());
      expect(pending.body.data.map((v: { app: { id: string } }) => v.app.id)).to.not.include(a.app.id);
      expect((await api.get(`${REVIEWS}?status=draft`, asOperator())).status).to.equal(400);
    });

    it('shows one version with its manifest and app; an unknown id is 404', async () => {
      const { app: submitted } = await givenSubmittedApp(api);
      const res = await api.get(`${REVIEWS}/${submitted.latest_version.id}`, asOperator());
      expect(res.status).to.equal(200);
      expect(res.body.data.manifest).to.deep.equal(submitted.latest_version.manifest);
      expect(res.body.data.app).to.include({ id: submitted.id, handle: submitted.handle, status: 'submitted' });
      expect(JSON.stringify(res.body)).to.not.match(/"hash"/);
      expect((await api.get(`${REVIEWS}/0123456789abcdef01234567`, asOperator())).status).to.equal(404);
    });

    it('approves: the version is approved, the app published with it; approving again is 409', async () => {
      const { app: submitted, developer } = await givenSubmittedApp(api);
      const res = await approve(submitted.latest_version.id);
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include({ status: 'approved' });
      expect(res.body.data.reviewed_at).to.be.a('string');
      expect(res.body.data.app).to.include({ status: 'published', published_version_id: submitted.latest_version.id });
      const mine = (await api.get(`${APPS}/${submitted.id}`, { token: developer.merchant.token })).body.data;
      expect(mine).to.include({ status: 'published', published_version_id: submitted.latest_version.id });
      expect(mine.published).to.deep.equal(submitted.latest_version.manifest);
      expect(mine.published_at).to.be.a('string');
      const twice = await approve(submitted.latest_version.id);
      expect(twice.status).to.equal(409);
      expect(twice.body.error.code).to.equal('version_not_in_review');
      expect((await reject(submitted.latest_version.id, ['late'])).status).to.equal(409);
      expect((await findPublishedApp(app.platform, submitted.id))?.handle).to.equal(submitted.handle);
    });

    it('rejects with reasons: a never-published app becomes rejected and is resubmitted into review', async () => {
      const { app: submitted, developer } = await givenSubmittedApp(api);
      const as = { token: developer.merchant.token };
      for (const body of [{}, { reasons: [] }, { reasons: ['  '] }, { reasons: ['ok'], extra: 1 }]) {
        expect((await api.post(`${REVIEWS}/${submitted.latest_version.id}/reject`, body, asOperator())).status, JSON.stringify(body)).to.equal(400);
      }
      const res = await reject(submitted.latest_version.id, ['The privacy policy is a 404', 'Scopes are broader than needed']);
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include({ status: 'rejected' });
      expect(res.body.data.reasons).to.deep.equal(['The privacy policy is a 404', 'Scopes are broader than needed']);
      expect(res.body.data.app.status).to.equal('rejected');
      const mine = (await api.get(`${APPS}/${submitted.id}`, as)).body.data;
      expect(mine.status).to.equal('rejected');
      expect(mine.latest_version.reasons).to.have.length(2);
      expect((await approve(submitted.latest_version.id)).status).to.equal(409);
      expect(await findPublishedApp(app.platform, submitted.id)).to.equal(null);
      const again = await api.post(`${APPS}/${submitted.id}/versions`, { manifest: { ...submitted.latest_version.manifest, version: '1.0.1' } }, as);
      expect(again.status, JSON.stringify(again.body)).to.equal(201);
      expect(again.body.data).to.include({ status: 'submitted', version_count: 2 });
      expect(again.body.data.latest_version).to.include({ number: 2, status: 'submitted' });
      expect((await approve(again.body.data.latest_version.id)).body.data.app.status).to.equal('published');
    });

    it('keeps serving the published version while a new one is in review, until it is approved', async () => {
      const { app: published, developer } = await givenPublishedApp(api, operator.token, { name: 'Slip Printer', description: 'First release' });
      const as = { token: developer.merchant.token };
      const v1 = published.latest_version;
      const submit = (overrides: Record<string, unknown>) => api.post(`${APPS}/${published.id}/versions`, { manifest: { ...v1.manifest, ...overrides } }, as);

      const v2 = await submit({ version: '2.0.0', name: 'Slip Printer Pro', scopes: ['read_orders', 'write_products'] });
      expect(v2.status).to.equal(201);
      expect(v2.body.data).to.include({ status: 'published', name: 'Slip Printer Pro', published_version_id: v1.id });
      const catalogued = async () => (await api.get(`${CATALOG}/${published.id}`)).body.data;
      expect(await catalogued()).to.include({ name: 'Slip Printer', version: '1.0.0' });

      // A newer submission supersedes v2 in the queue; only the latest can be approved.
      const v3 = await submit({ version: '3.0.0', name: 'Slip Printer Max' });
      const v2Review = await api.get(`${REVIEWS}/${v2.body.data.latest_version.id}`, asOperator());
      expect(v2Review.body.data.status).to.equal('superseded');
      const late = await approve(v2.body.data.latest_version.id);
      expect(late.status).to.equal(409);

      // Rejecting v3 leaves the published app as it was.
      const rejected = await reject(v3.body.data.latest_version.id, ['Broken build']);
      expect(rejected.body.data.app.status).to.equal('published');
      expect(await catalogued()).to.include({ name: 'Slip Printer', version: '1.0.0' });

      const v4 = await submit({ version: '4.0.0', name: 'Slip Printer Ultra', scopes: ['read_customers'] });
      expect((await approve(v4.body.data.latest_version.id)).status).to.equal(200);
      const now = await catalogued();
      expect(now).to.include({ name: 'Slip Printer Ultra', version: '4.0.0' });
      expect(now.scopes).to.deep.equal([{ name: 'read_customers', description: 'Customers and their addresses' }]);
      expect((await api.get(`${REVIEWS}/${v1.id}`, asOperator())).body.data.status).to.equal('superseded');
      const mine = (await api.get(`${APPS}/${published.id}`, as)).body.data;
      expect(mine).to.include({ version_count: 4, published_version_id: v4.body.data.latest_version.id, status: 'published' });
    });

    it('refuses a new version that changes the handle or is invalid', async () => {
      const { app: submitted, developer } = await givenSubmittedApp(api);
      const res = await api.post(`${APPS}/${submitted.id}/versions`, { manifest: validManifest() }, { token: developer.merchant.token });
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('invalid_manifest');
      expect(res.body.error.details).to.deep.equal([`handle: must stay "${submitted.handle}" (an app's handle cannot change)`]);
      const invalid = await api.post(
        `${APPS}/${submitted.id}/versions`,
        { manifest: { ...submitted.latest_version.manifest, scopes: [] } },
        { token: developer.merchant.token },
      );
      expect(invalid.body.error.details).to.deep.equal(['scopes: must have at least 1 item']);
    });
  });

  describe('the catalog (GET /v1/app-store/apps)', () => {
    it('is public and shows published apps only, as their published version, without secrets or owners', async () => {
      const published = await givenPublishedApp(api, operator.token, {
        name: 'Catalog Visible',
        extensions: [
          { kind: 'admin_ui', handle: 'a', name: 'A', target: 'admin.order.details' },
          { kind: 'theme_app_block', handle: 'b', name: 'B', target: 'section' },
          { kind: 'admin_ui', handle: 'c', name: 'C', target: 'admin.product.details' },
        ],
      });
      const submitted = await givenSubmittedApp(api, { name: 'Catalog Hidden' });
      const res = await api.get(`${CATALOG}?limit=250`);
      expect(res.status).to.equal(200);
      const ids = res.body.data.map((a: { id: string }) => a.id);
      expect(ids).to.include(published.app.id).and.not.include(submitted.app.id);
      const item = res.body.data.find((a: { id: string }) => a.id === published.app.id);
      expect(item).to.have.all.keys(
        'id',
        'handle',
        'name',
        'description',
        'version',
        'app_url',
        'scopes',
        'privacy_policy_url',
        'support_url',
        'embedded',
        'extension_kinds',
        'developer',
        'rating',
        'published_at',
      );
      expect(item.rating).to.deep.equal({ average: null, count: 0, distribution: { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 } });
      expect(item.scopes).to.deep.equal([
        { name: 'read_app_metadata', description: 'The app’s own metadata for the store' },
        { name: 'read_orders', description: 'Orders' },
        { name: 'read_products', description: 'Products and collections' },
        { name: 'write_app_metadata', description: 'Change the app’s own metadata for the store' },
      ]);
      expect(item.extension_kinds).to.deep.equal(['admin_ui', 'theme_app_block']);
      expect(item.developer).to.deep.equal({ name: 'Acme Apps', website_url: 'https://acme.example.com/' });
      const text = JSON.stringify(res.body);
      expect(text).to.not.include(published.developer.merchant.id);
      expect(text).to.not.include(published.credentials.oauth_client_id);
      expect(text).to.not.match(/"hash"|emp_cs_|emp_ak_/);
      expect((await api.get(`${CATALOG}/${published.app.id}`)).body.data).to.deep.equal(item);
      expect((await api.get(`${CATALOG}/${submitted.app.id}`)).status).to.equal(404);
      expect((await api.get(`${CATALOG}/nope`)).status).to.equal(404);
    });

    it('searches name, handle and description case-insensitively, with regex characters taken literally', async () => {
      const a = await givenPublishedApp(api, operator.token, { name: 'Zebra Labels' });
      const b = await givenPublishedApp(api, operator.token, { description: 'Prints ZEBRA barcodes (v2.0+)' });
      const c = await givenPublishedApp(api, operator.token, { handle: 'zebra-sync-app' });
      await givenPublishedApp(api, operator.token, { name: 'Unrelated' });
      const found = async (q: string) => (await api.get(`${CATALOG}?q=${encodeURIComponent(q)}&limit=250`)).body.data.map((x: { id: string }) => x.id);
      expect(await found('zebra')).to.have.members([a.app.id, b.app.id, c.app.id]);
      expect(await found('(v2.0+)')).to.deep.equal([b.app.id]);
      expect(await found('.*')).to.deep.equal([]);
      expect((await api.get(`${CATALOG}?q=`)).status).to.equal(400);
      expect((await api.get(`${CATALOG}?sort=name`)).status).to.equal(400);
    });

    it('pages with a cursor', async () => {
      for (let i = 0; i < 3; i++) await givenPublishedApp(api, operator.token);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res: { status: number; body: { data: { id: string }[]; page: { next_cursor: string | null } } } = await api.get(
          `${CATALOG}?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        );
        expect(res.status).to.equal(200);
        expect(res.body.data.length).to.be.at.most(2);
        seen.push(...res.body.data.map((x) => x.id));
        cursor = res.body.page.next_cursor;
      } while (cursor);
      expect(new Set(seen).size).to.equal(seen.length);
      expect(seen.length).to.equal(await app.platform.db.collection('apps').countDocuments({ status: 'published' }));
      expect((await api.get(`${CATALOG}?cursor=garbage`)).status).to.equal(400);
    });
  });
});
