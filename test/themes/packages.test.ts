import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { ObjectId } from 'mongodb';
import { counts } from '../helpers/database.js';
import { png } from '../helpers/images.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { bundleOf, bundleWithAppBlocks, setAsset } from '../helpers/theme-uploads.js';
import { useThemeMarketplace } from '../helpers/theme-marketplace.js';
import { until } from '../helpers/waiting.js';

const OPERATOR = 'theme-operator@example.com';

/**
 * Theme packages (spec 2.6, 3, 4.6, 6.2; docs/themes.md): upload, the review checks run by a
 * real `themes` worker, the operator's decision, the catalog and schema, install into a store.
 */
describe('Theme packages: upload, review by the themes worker, catalog, install', () => {
  const { app, api, author, operator, worker } = useThemeMarketplace('theme_packages', OPERATOR);

  const upload = (bundle: unknown, as: { token: string } = { token: author.merchant.token }, mode?: string) =>
    api.post('/v1/themes/packages/upload', { bundle, ...(mode ? { submission_mode: mode } : {}) }, as);
  /** The review once its checks ran, which must have ended in `status` (the checks are shown when not). */
  const review = async (id: string, status: string) => {
    const done = await until(`review ${id} checked`, async () => {
      const r = await api.get(`/v1/operations/theme-reviews/${id}`, { token: operator.token });
      return r.body.data && r.body.data.status !== 'pending_checks' ? r.body.data : null;
    });
    expect(done.status, JSON.stringify(done.checks)).to.equal(status);
    return done;
  };
  const events = (key: string) => app.platform.db.collection('events').find({ idempotency_key: key }).toArray();
  /** Upload, let the worker check it, approve it: a published marketplace theme. */
  const published = async (bundle: Record<string, any>) => {
    const up = await upload(bundle);
    expect(up.status, JSON.stringify(up.body)).to.equal(201);
    await review(up.body.data.review_record.id, 'awaiting_review');
    const ok = await api.post(`/v1/operations/theme-reviews/${up.body.data.review_record.id}/approve`, undefined, { token: operator.token });
    expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
    return up.body.data;
  };

  describe('upload', () => {
    it('answers exactly the spec 4.6 shape: draft package and version, a review record, not installable; theme.submitted recorded', async () => {
      const bundle = bundleOf('aurora');
      const res = await upload(bundle);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const data = res.body.data;
      expect(data).to.have.keys('theme', 'package', 'version', 'schema_manifest_version', 'renderer_version', 'installable', 'review_record');
      expect(data.package).to.include({ slug: bundle.package.slug, status: 'draft' });
      expect(data.version).to.include({ version: bundle.package.version, version_number: 1, status: 'draft', submission_mode: 'marketplace' });
      expect(data.theme.id).to.equal(data.version.id);
      expect([data.schema_manifest_version, data.renderer_version, data.installable]).to.deep.equal(['2026-05-json-contract', '1.0.0', false]);
      expect(data.review_record).to.include({
        submission_type: 'theme_version',
        resource_id: data.version.id,
        schema_manifest_version: '2026-05-json-contract',
        renderer_version: '1.0.0',
      });
      const submitted = await events(`theme.submitted:${data.package.id}:${data.version.id}`);
      expect(submitted).to.have.length(1);
      expect(submitted[0]!.payload).to.include({
        theme_package_id: data.package.id,
        theme_version_id: data.version.id,
        review_record_id: data.review_record.id,
      });
      expect(String(submitted[0]!.store_id)).to.equal(author.store.id);
      // Not public, not installable.
      expect((await api.get(`/v1/themes/${bundle.package.slug}/schema`)).status).to.equal(404);
      const catalog = await api.get('/v1/themes?limit=250');
      expect(catalog.body.data.map((t: { slug: string }) => t.slug)).to.not.include(bundle.package.slug);
    });

    it('refuses an invalid bundle with every issue before anything is written, and a body that is not strict', async () => {
      const before = await counts(app.platform.db);
      const bad = bundleOf('aurora');
      bad.schema_version = '2025-01';
      const res = await upload(bad);
      expect([res.status, res.body.error.code]).to.deep.equal([400, 'invalid_bundle']);
      expect(res.body.error.details).to.be.an('array').that.is.not.empty;
      expect((await api.post('/v1/themes/packages/upload', { bundle: bundleOf('aurora'), extra: 1 }, { token: author.merchant.token })).status).to.equal(400);
      expect(
        (await api.post('/v1/themes/packages/upload', { bundle: bundleOf('aurora'), submission_mode: 'public' }, { token: author.merchant.token })).status,
      ).to.equal(400);
      expect((await api.post('/v1/themes/packages/upload', { bundle: [] }, { token: author.merchant.token })).status).to.equal(400);
      expect((await api.post('/v1/themes/packages/upload', { bundle: bundleOf('aurora') })).status).to.equal(401);
      const after = await counts(app.platform.db);
      for (const c of ['theme_packages', 'theme_versions', 'theme_reviews']) expect(after[c] ?? 0, c).to.equal(before[c] ?? 0);
    });

    it('answers hostile uploads with 4xx, never a 5xx (deep nesting, huge strings, hostile keys, wrong types, an oversized body)', async () => {
      const deep = bundleOf('aurora');
      deep.config.settings_data.current = JSON.parse('{"a":'.repeat(200) + '1' + '}'.repeat(200));
      const hostile = bundleOf('aurora');
      hostile.config.settings_data.current = { $where: 'x', 'a.b': 1 };
      const wrong = bundleOf('aurora');
      wrong.templates = [];
      wrong.sections = 'x';
      const huge = bundleOf('aurora');
      huge.package.name = 'x'.repeat(200_000);
      const seeds = [deep, hostile, wrong, huge, { schema_version: '2026-05-json-contract' }, { package: null }, bundleOf('aurora', 'Not A Slug')];
      for (const bundle of seeds) {
        const res = await upload(bundle);
        expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.be.within(400, 499);
      }
      const oversized = await api.send('POST', '/v1/themes/packages/upload', JSON.stringify({ bundle: { blob: 'x'.repeat(6 * 1024 * 1024) } }), {
        token: author.merchant.token,
      });
      expect(oversized.status).to.equal(413);
      // A bundle between the default body limit (1 MiB) and the bundle limit is read (and judged by the validator).
      const big = bundleOf('aurora');
      big.package.description = 'x'.repeat(1_200_000);
      const judged = await upload(big);
      expect([judged.status, judged.body.error.code]).to.deep.equal([400, 'invalid_bundle']);
    });

    it('treats the identical bundle as the same upload, keeps a slug to its author, and needs a growing version_number', async () => {
      const bundle = bundleOf('aurora');
      const first = await upload(bundle);
      const again = await upload(bundle);
      expect(again.status).to.equal(200);
      expect(again.body.data.version.id).to.equal(first.body.data.version.id);
      expect(again.body.data.review_record.id).to.equal(first.body.data.review_record.id);

      const stranger = await givenMerchantWithStore(api);
      const taken = await upload(bundle, { token: stranger.merchant.token });
      expect([taken.status, taken.body.error.code]).to.deep.equal([403, 'theme_slug_taken']);

      const same = structuredClone(bundle);
      same.package.version = '1.0.1';
      const stale = await upload(same);
      expect([stale.status, stale.body.error.code]).to.deep.equal([409, 'version_number_not_increasing']);
      same.package.version_number = 2;
      const next = await upload(same);
      expect(next.status).to.equal(201);
      expect(next.body.data.version).to.include({ version: '1.0.1', version_number: 2 });
      expect(next.body.data.package.id).to.equal(first.body.data.package.id);
    });

    it('stores each inline asset in object storage, byte for byte', async () => {
      const bundle = bundleOf('aurora');
      const res = await upload(bundle);
      const storage = (await import('../../src/storage/index.js')).objectStorage(app.platform);
      for (const asset of bundle.renderer.assets) {
        const object = await storage.get(`themes/${res.body.data.package.id}/${res.body.data.version.id}/${asset.path}`);
        expect(object?.bytes.toString('utf8'), asset.path).to.equal(asset.content);
      }
    });
    it('takes binary assets as media files of the author’s own stores, and checks them in storage', async () => {
      const image = png(4, 4);
      const mediaUpload = async (who: GivenMerchantWithStore) => {
        const form = new FormData();
        form.append('file', new Blob([image], { type: 'image/png' }), 'logo.png');
        const res = await fetch(`${app.url}/v1/media`, {
          method: 'POST',
          headers: { authorization: `Bearer ${who.merchant.token}`, 'x-store-id': who.store.id },
          body: form,
        });
        return ((await res.json()) as { data: { id: string } }).data.id;
      };
      const asset = (mediaId: string) => ({
        path: 'assets/logo.png',
        content_type: 'image/png',
        size: image.length,
        sha256: createHash('sha256').update(image).digest('hex'),
        media_id: mediaId,
      });
      const theirs = await mediaUpload(await givenMerchantWithStore(api));
      const foreign = bundleOf('aurora');
      foreign.renderer.assets.push(asset(theirs));
      const refused = await upload(foreign);
      expect([refused.status, refused.body.error.code]).to.deep.equal([400, 'invalid_bundle']);
      expect(refused.body.error.details.join('\n')).to.match(/media_id: is not a media file of a store you own/);

      const mine = bundleOf('aurora');
      mine.renderer.assets.push(asset(await mediaUpload(author)));
      const up = await upload(mine);
      expect(up.status, JSON.stringify(up.body)).to.equal(201);
      const checked = await review(up.body.data.review_record.id, 'awaiting_review');
      expect(checked.checks.find((c: { name: string }) => c.name === 'theme_package_persistence').status).to.equal('passed');
    });
  });

  describe('review', () => {
    it('passes every check of a bundle holding app blocks (stored normalised, validated again)', async () => {
      const up = await upload(bundleWithAppBlocks('ember-liquid'));
      expect(up.status, JSON.stringify(up.body)).to.equal(201);
      const done = await review(up.body.data.review_record.id, 'awaiting_review');
      for (const c of done.checks) expect(['passed', 'warning'], `${c.name}: ${JSON.stringify(c.details)}`).to.include(c.status);
      expect(done.checks.find((c: { name: string }) => c.name === 'bundle_schema_validation').status).to.equal('passed');
    });

    it('runs every check in the themes worker and records each result; theme.review.completed follows', async () => {
      const up = (await upload(bundleOf('ember-liquid'))).body.data;
      const done = await review(up.review_record.id, 'awaiting_review');
      expect(done.checks.map((c: { name: string }) => c.name)).to.deep.equal([
        'bundle_schema_validation',
        'theme_package_persistence',
        'liquid_syntax',
        'settings_labels',
        'locale_coverage',
      ]);
      for (const c of done.checks) expect(['passed', 'warning'], c.name).to.include(c.status);
      expect(done.checks.find((c: { name: string }) => c.name === 'bundle_schema_validation').status).to.equal('passed');
      expect(done.checks.find((c: { name: string }) => c.name === 'theme_package_persistence').status).to.equal('passed');
      // The event travels with the review's write and is recorded just after it (the outbox): wait for it.
      const recorded = await until('theme.review.completed recorded', async () => {
        const found = await events(`theme.review.completed:${up.review_record.id}`);
        return found.length > 0 ? found : null;
      });
      expect(recorded).to.have.length(1);
    });

    it('fails liquid_syntax with each file, line and column, and persistence when an asset is gone from storage', async () => {
      const bundle = bundleOf('ember-liquid');
      setAsset(bundle, 'sections/hero.liquid', '<h1>{{ section.settings.title }}</h1>\n{% if %}broken{% endif %}');
      const up = (await upload(bundle)).body.data;
      const failed = await review(up.review_record.id, 'checks_failed');
      const liquid = failed.checks.find((c: { name: string }) => c.name === 'liquid_syntax');
      expect(liquid.status).to.equal('failed');
      expect(liquid.details[0]).to.match(/^sections\/hero\.liquid:2:\d+: /);
      // Approving a review whose checks failed is refused.
      const refused = await api.post(`/v1/operations/theme-reviews/${up.review_record.id}/approve`, undefined, { token: operator.token });
      expect([refused.status, refused.body.error.code]).to.deep.equal([409, 'review_checks_failed']);

      const lost = bundleOf('aurora');
      const ids = (await upload(lost)).body.data;
      // Take the asset away before the worker looks (the review is still being checked or just checked: run it again).
      await (
        await import('../../src/storage/index.js')
      )
        .objectStorage(app.platform)
        .delete(`themes/${ids.package.id}/${ids.version.id}/${lost.renderer.assets[0].path}`);
      await app.platform.db
        .collection('theme_reviews')
        .updateOne({ _id: new ObjectId(ids.review_record.id) }, { $set: { status: 'pending_checks', lease_until: null, lease_owner: null } });
      const persisted = await review(ids.review_record.id, 'checks_failed');
      const check = persisted.checks.find((c: { name: string }) => c.name === 'theme_package_persistence');
      expect(check.status).to.equal('failed');
      expect(check.details[0]).to.match(/not in object storage/);
    });

    it('fails liquid_syntax on the Liquid bounds, without parsing, for a version stored before them', async () => {
      const up = (await upload(bundleOf('ember-liquid'))).body.data;
      await review(up.review_record.id, 'awaiting_review');
      // Seven sections of half a megabyte of outputs (seconds of parsing each): as a version stored before the bounds could hold.
      const huge = '{{ b }}'.repeat(72_000);
      const version = await app.platform.db.collection('theme_versions').findOne({ _id: new ObjectId(up.version.id) });
      const assets = version!.bundle.renderer.assets.map((a: Record<string, unknown>) =>
        a.path === 'sections/hero-banner.liquid' ? { ...a, content: huge } : a,
      );
      for (let i = 0; i < 6; i++)
        assets.push({ path: `snippets/huge-${i}.liquid`, content_type: 'text/x-liquid', size: huge.length, sha256: 'x', content: huge });
      await app.platform.db.collection('theme_versions').updateOne({ _id: version!._id }, { $set: { 'bundle.renderer.assets': assets } });
      await app.platform.db
        .collection('theme_reviews')
        .updateOne({ _id: new ObjectId(up.review_record.id) }, { $set: { status: 'pending_checks', lease_until: null, lease_owner: null } });
      const failed = await review(up.review_record.id, 'checks_failed');
      const liquid = failed.checks.find((c: { name: string }) => c.name === 'liquid_syntax');
      expect(liquid.status).to.equal('failed');
      expect(liquid.details).to.include('sections/hero-banner.liquid: is 504000 characters; a Liquid file may have at most 262144 characters');
      expect(liquid.details.filter((d: string) => d.startsWith('snippets/huge-'))).to.have.length(6);
      expect(worker.output()).to.not.match(/liquid_syntax_thread_stopped/);
    });

    it('is for operators: approve publishes (installable, in the catalog), reject records reasons', async () => {
      const up = (await upload(bundleOf('aurora'))).body.data;
      expect((await api.get('/v1/operations/theme-reviews', { token: author.merchant.token })).status).to.equal(403);
      expect((await api.post(`/v1/operations/theme-reviews/${up.review_record.id}/approve`, undefined, { token: author.merchant.token })).status).to.equal(403);
      await review(up.review_record.id, 'awaiting_review');
      const approved = await api.post(`/v1/operations/theme-reviews/${up.review_record.id}/approve`, undefined, { token: operator.token });
      expect(approved.body.data.status).to.equal('approved');
      const again = await api.post(`/v1/operations/theme-reviews/${up.review_record.id}/approve`, undefined, { token: operator.token });
      expect(again.status).to.equal(200);
      expect(await events(`theme.published:${up.package.id}:${up.version.id}`)).to.have.length(1);
      const uploadedAgain = await upload(bundleOf('aurora', up.package.slug));
      expect(uploadedAgain.body.data.installable).to.equal(true);

      const other = (await upload(bundleOf('aurora'))).body.data;
      await review(other.review_record.id, 'awaiting_review');
      const noReasons = await api.post(`/v1/operations/theme-reviews/${other.review_record.id}/reject`, { reasons: [] }, { token: operator.token });
      expect(noReasons.status).to.equal(400);
      const rejected = await api.post(
        `/v1/operations/theme-reviews/${other.review_record.id}/reject`,
        { reasons: ['Hero text contrast is too low'] },
        { token: operator.token },
      );
      expect(rejected.body.data).to.include({ status: 'rejected' });
      expect(rejected.body.data.reasons).to.deep.equal(['Hero text contrast is too low']);
      expect((await api.get(`/v1/themes/${other.package.slug}/schema`)).status).to.equal(404);
    });

    it('keeps serving the published version while a new one is in review', async () => {
      const bundle = bundleOf('aurora');
      const first = await published(bundle);
      const next = structuredClone(bundle);
      next.package.version = '9.0.0';
      next.package.version_number = bundle.package.version_number + 1;
      const second = (await upload(next)).body.data;
      expect((await api.get(`/v1/themes/${first.package.slug}/schema`)).body.data.version).to.equal(bundle.package.version);
      await review(second.review_record.id, 'awaiting_review');
      await api.post(`/v1/operations/theme-reviews/${second.review_record.id}/approve`, undefined, { token: operator.token });
      expect((await api.get(`/v1/themes/${first.package.slug}/schema`)).body.data.version).to.equal('9.0.0');
    });
  });

  describe('catalog and schema', () => {
    it('lists published marketplace themes with filters and pagination, and serves the schema of the published version', async () => {
      const fashion = bundleOf('aurora');
      fashion.package.site_types = ['fashion'];
      const food = bundleOf('aurora');
      food.package.site_types = ['food'];
      await published(fashion);
      await published(food);
      const all = await api.get('/v1/themes?limit=250');
      const slugs = all.body.data.map((t: { slug: string }) => t.slug);
      expect(slugs).to.include.members([fashion.package.slug, food.package.slug]);
      const onlyFood = (await api.get('/v1/themes?site_type=food&limit=250')).body.data.map((t: { slug: string }) => t.slug);
      expect(onlyFood).to.include(food.package.slug).and.not.include(fashion.package.slug);
      const page = await api.get('/v1/themes?limit=1');
      expect(page.body.data).to.have.length(1);
      expect(page.body.page.next_cursor).to.be.a('string');
      const schema = (await api.get(`/v1/themes/${food.package.slug}/schema`)).body.data;
      expect(schema).to.include.keys('settings_schema', 'sections', 'blocks', 'templates', 'locales');
      expect(schema.templates).to.have.property('home');
      expect((await api.get('/v1/themes?pricing_type=gratis')).status).to.equal(400);
    });
  });

  describe('install', () => {
    it('installs a published theme into a store the merchant owns: the first is live, another goes live atomically', async () => {
      const a = await published(bundleOf('aurora'));
      const b = await published(bundleOf('aurora'));
      const shop = await givenMerchantWithStore(api);
      const first = await api.post(`/v1/themes/${a.package.slug}/install`, { store_id: shop.store.id }, { token: shop.merchant.token });
      expect(first.status, JSON.stringify(first.body)).to.equal(201);
      expect(first.body.data).to.include({ role: 'live', slug: a.package.slug, version: bundleOf('aurora').package.version });
      expect(first.body.data.settings_data).to.deep.equal(bundleOf('aurora').config.settings_data);
      const second = await api.post(`/v1/themes/${b.package.slug}/install`, { store_id: shop.store.id }, { token: shop.merchant.token });
      expect(second.body.data.role).to.equal('unpublished');
      const live = await api.post(`/v1/themes/installed/${second.body.data.id}/publish`, undefined, shop.as);
      expect(live.body.data.role).to.equal('live');
      const list = (await api.get('/v1/themes/installed', shop.as)).body.data;
      expect(list.filter((t: { role: string }) => t.role === 'live').map((t: { id: string }) => t.id)).to.deep.equal([second.body.data.id]);
      expect((await api.get('/v1/stores/current', shop.as)).body.data.live_theme_id).to.equal(second.body.data.id);
      expect(await events(`theme.installed:${first.body.data.id}`)).to.have.length(1);
    });

    it('refuses a store the merchant does not own, an unpublished theme, and a paid one the store has not purchased (theme-purchases.test.ts)', async () => {
      const a = await published(bundleOf('aurora'));
      const shop = await givenMerchantWithStore(api);
      const notMine = await api.post(`/v1/themes/${a.package.slug}/install`, { store_id: author.store.id }, { token: shop.merchant.token });
      expect([notMine.status, notMine.body.error.code]).to.deep.equal([403, 'store_forbidden']);
      const draft = (await upload(bundleOf('aurora'))).body.data;
      expect((await api.post(`/v1/themes/${draft.package.slug}/install`, { store_id: shop.store.id }, { token: shop.merchant.token })).status).to.equal(404);
      const paid = bundleOf('aurora');
      paid.package.pricing_type = 'paid';
      paid.package.price = 49;
      await published(paid);
      const refused = await api.post(`/v1/themes/${paid.package.slug}/install`, { store_id: shop.store.id }, { token: shop.merchant.token });
      expect([refused.status, refused.body.error.code]).to.deep.equal([402, 'purchase_required']);
      expect((await api.get('/v1/themes/installed', { token: shop.merchant.token, storeId: author.store.id })).status).to.equal(403);
    });

    it('private_install: no review, installable at once, into the author’s own stores only, never listed', async () => {
      const bundle = bundleOf('aurora');
      const res = await upload(bundle, { token: author.merchant.token }, 'private_install');
      expect(res.status).to.equal(201);
      expect(res.body.data.review_record).to.equal(null);
      expect(res.body.data.installable).to.equal(true);
      const mine = await api.post(`/v1/themes/${bundle.package.slug}/install`, { store_id: author.store.id }, { token: author.merchant.token });
      expect(mine.status).to.equal(201);
      const shop = await givenMerchantWithStore(api);
      expect((await api.post(`/v1/themes/${bundle.package.slug}/install`, { store_id: shop.store.id }, { token: shop.merchant.token })).status).to.equal(404);
      expect((await api.get('/v1/themes?limit=250')).body.data.map((t: { slug: string }) => t.slug)).to.not.include(bundle.package.slug);
      const asMarketplace = await upload({ ...bundle, package: { ...bundle.package, version_number: 2 } });
      expect([asMarketplace.status, asMarketplace.body.error.code]).to.deep.equal([409, 'submission_mode_mismatch']);
    });
  });
});
