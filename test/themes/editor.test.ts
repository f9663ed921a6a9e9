import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { installations } from '../../src/apps/installations/models.js';
import { issueTokens } from '../../src/apps/oauth/tokens.js';
import { sweepExpiredPreviewSessions, previewRenderableTheme, liveRenderableTheme } from '../../src/themes/index.js';
import type { Platform } from '../../src/platform.js';
import { useTestApp } from '../helpers/app.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { bundleOf } from '../helpers/theme-uploads.js';

/**
 * The theme editor of a store's installed theme (spec 4.6; docs/themes.md, Editor and drafts,
 * Releases and rollback, Preview sessions): per-template drafts with optimistic versions,
 * publish as releases, history and rollback, preview sessions the storefront renderer reads.
 */
describe('Theme editor: drafts, releases, rollback, preview sessions', () => {
  const { app, api } = useTestApp('theme_editor');
  let shop: GivenMerchantWithStore;
  let slug: string;
  let bundle: Record<string, any>;
  /** The templates as installed (the bundle's, normalised). */
  let installed: Record<string, any>;

  /** A private theme of the shop's merchant (no review), installed into the shop. */
  const givenInstalled = async (owner: GivenMerchantWithStore, fixture: 'aurora' | 'ember-liquid' = 'aurora', publish = false) => {
    const b = bundleOf(fixture);
    const up = await api.post('/v1/themes/packages/upload', { bundle: b, submission_mode: 'private_install' }, { token: owner.merchant.token });
    expect(up.status, JSON.stringify(up.body)).to.equal(201);
    const installed = await api.post(`/v1/themes/${b.package.slug}/install`, { store_id: owner.store.id, publish }, { token: owner.merchant.token });
    expect(installed.status, JSON.stringify(installed.body)).to.equal(201);
    return { bundle: b, slug: b.package.slug as string, theme: installed.body.data };
  };
  const editor = async (s = slug, as = shop.as) => {
    const res = await api.get(`/v1/themes/${s}/editor`, as);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data;
  };
  const save = (template_key: string, content: unknown, version: number, s = slug, as = shop.as) =>
    api.put(`/v1/themes/${s}/editor/draft`, { template_key, content, version }, as);
  const publish = (body: Record<string, unknown> = {}, s = slug) => api.post(`/v1/themes/${s}/editor/publish`, body, shop.as);
  const liveTheme = async () => {
    const store = await api.get('/v1/stores/current', shop.as);
    return liveRenderableTheme(app.platform, shop.store.id, store.body.data.live_theme_id);
  };
  /** The home template with the hero's heading changed. */
  const homeWith = (heading: string, base: Record<string, any> = bundle.templates.home) => {
    const home = structuredClone(base);
    home.sections.hero.blocks.heading.settings.heading = heading;
    return home;
  };
  const counts = async () => ({
    drafts: await app.platform.db.collection('theme_drafts').find({}).toArray(),
    releases: await app.platform.db.collection('theme_releases').countDocuments(),
  });

  before(async () => {
    shop = await givenMerchantWithStore(api);
    ({ bundle, slug } = await givenInstalled(shop));
    installed = Object.fromEntries(Object.entries((await editor()).templates).map(([k, t]: [string, any]) => [k, t.live]));
  });

  describe('GET /v1/themes/:slug/editor', () => {
    it('shows every template (sections, order, blocks, block_order, disabled flags, settings), no drafts, the settings schema and current settings', async () => {
      const state = await editor();
      expect(state.theme).to.include({ slug, role: 'live' });
      expect(state.release_number).to.equal(0);
      expect(Object.keys(state.templates)).to.include.members(['home', 'product', 'collection', 'page']);
      const home = state.templates.home;
      expect(home).to.include({ template_key: 'home', has_draft: false, draft: null, version: 0 });
      expect(home.live.order).to.deep.equal(bundle.templates.home.order);
      expect(home.live.sections.hero.block_order).to.deep.equal(['heading', 'text', 'button']);
      expect(home.live.sections.hero.blocks.heading).to.deep.include({ type: 'heading', disabled: false });
      expect(home.live.sections.hero.settings).to.deep.equal(bundle.templates.home.sections.hero.settings);
      expect(state.templates.page.live.sections.contact.disabled).to.equal(true);
      expect(state.settings.settings_schema.settings[0].settings[0]).to.include({ id: 'color_background', type: 'color' });
      expect(state.settings.live).to.deep.equal(bundle.config.settings_data);
      expect(state.settings).to.include({ template_key: 'settings_data', has_draft: false, version: 0 });
      expect(state.sections).to.have.property('hero');
    });

    it('is 404 for a theme the store has not installed, and for a malformed slug or theme id; 400 for an unknown query', async () => {
      expect((await api.get('/v1/themes/not-installed/editor', shop.as)).status).to.equal(404);
      expect((await api.get('/v1/themes/Not_A_Slug/editor', shop.as)).status).to.equal(404);
      expect((await api.get(`/v1/themes/${slug}/editor?theme_id=${'0'.repeat(24)}`, shop.as)).status).to.equal(404);
      expect((await api.get(`/v1/themes/${slug}/editor?theme_id=nope`, shop.as)).status).to.equal(400);
      expect((await api.get(`/v1/themes/${slug}/editor?extra=1`, shop.as)).status).to.equal(400);
    });
  });

  describe('PUT /v1/themes/:slug/editor/draft', () => {
    it('saves per template: of two saves from the same version one wins and the other gets 409 with the current version; the product draft never touches home', async () => {
      const first = await save('home', homeWith('Draft one'), 0);
      expect(first.status, JSON.stringify(first.body)).to.equal(200);
      expect(first.body.data).to.include({ template_key: 'home', has_draft: true, version: 1 });
      expect(first.body.data.draft.sections.hero.blocks.heading.settings.heading).to.equal('Draft one');

      // Two tabs save the product template from the same (no-draft) version at once.
      const product = structuredClone(bundle.templates.product);
      product.sections.main.settings.show_sku = true;
      const [a, b] = await Promise.all([save('product', product, 0), save('product', { ...product, order: ['related', 'main'] }, 0)]);
      expect([a.status, b.status].sort()).to.deep.equal([200, 409]);
      const lost = a.status === 409 ? a : b;
      expect(lost.body.error.code).to.equal('draft_version_conflict');
      expect(lost.body.data).to.include({ template_key: 'product', version: 1, has_draft: true });

      // Two tabs save home from version 1: one wins; the loser learns version 2.
      const [c, d] = await Promise.all([save('home', homeWith('Tab A'), 1), save('home', homeWith('Tab B'), 1)]);
      expect([c.status, d.status].sort()).to.deep.equal([200, 409]);
      expect((c.status === 409 ? c : d).body.data.version).to.equal(2);

      const state = await editor();
      expect(state.templates.product).to.include({ has_draft: true, version: 1 });
      expect(state.templates.home).to.include({ has_draft: true, version: 2 });
      expect(['Tab A', 'Tab B']).to.include(state.templates.home.draft.sections.hero.blocks.heading.settings.heading);
      expect(state.templates.home.live.sections.hero.blocks.heading.settings.heading).to.equal('New season, new light');
      // A stale save (an old version) is refused and changes nothing.
      const stale = await save('home', homeWith('Stale'), 1);
      expect([stale.status, stale.body.data.version]).to.deep.equal([409, 2]);
      expect((await editor()).templates.home.draft.sections.hero.blocks.heading.settings.heading).to.not.equal('Stale');
    });

    it('validates a draft by the bundle rules, with the spec 7 issue paths, and changes nothing', async () => {
      const before = await counts();
      const badType = homeWith('x');
      badType.sections.hero.type = 'no-such-section';
      const badBlock = homeWith('x');
      badBlock.sections.hero.blocks.heading.type = 'no-such-block';
      const badOrder = homeWith('x');
      badOrder.order = [...badOrder.order, 'ghost'];
      const notEnabled = structuredClone(bundle.templates.product);
      notEnabled.sections.main.type = 'hero';
      const cases: [string, unknown, string][] = [
        ['home', badType, 'templates.home.sections.hero.type: '],
        ['home', badBlock, 'templates.home.sections.hero.blocks.heading.type: '],
        ['home', badOrder, 'template.order: '],
        ['product', notEnabled, 'templates.product.sections.main.type: '],
        ['settings_data', { current: { color_accent: 'red' }, presets: {} }, 'config.settings_data.current.color_accent: '],
        ['home', { sections: {} }, 'templates.home'],
      ];
      for (const [key, content, path] of cases) {
        const res = await save(key, content, 0);
        expect([res.status, res.body.error.code], JSON.stringify(res.body)).to.deep.equal([400, 'invalid_draft']);
        expect(
          res.body.error.details.some((d: string) => d.startsWith(path)),
          JSON.stringify(res.body.error.details),
        ).to.equal(true);
      }
      const after = await counts();
      expect(after).to.deep.equal(before);
    });

    it('answers hostile and malformed input with 4xx, never a 5xx, and writes nothing', async () => {
      const before = await counts();
      const deep = JSON.parse('{"a":'.repeat(300) + '1' + '}'.repeat(300));
      const hostile = homeWith('x');
      hostile.sections.hero.settings = { $where: 'x', 'a.b': 1 };
      const bodies: unknown[] = [
        { template_key: 'home', content: [], version: 0 },
        { template_key: 'nope', content: {}, version: 0 },
        { template_key: 'home', content: {}, version: -1 },
        { template_key: 'home', content: {}, version: 1.5 },
        { template_key: 'home', content: {}, version: '1' },
        { template_key: 'home', content: {} },
        { template_key: 'home', content: homeWith('x'), version: 0, extra: 1 },
        { template_key: 'home', content: deep, version: 0 },
        { template_key: 'home', content: hostile, version: 0 },
        { template_key: 'home', content: { sections: 'x', order: 'y' }, version: 0 },
        { template_key: 'settings_data', content: { current: [], presets: 1 }, version: 0 },
        { template_key: 'home', content: { ...homeWith('x'), order: Array.from({ length: 5000 }, (_, i) => `s${i}`) }, version: 0 },
      ];
      for (const body of bodies) {
        const res = await api.put(`/v1/themes/${slug}/editor/draft`, body, shop.as);
        expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.be.within(400, 499);
        expect(res.body.error).to.have.property('code');
      }
      expect((await api.send('PUT', `/v1/themes/${slug}/editor/draft`, '{"template_key":', shop.as)).status).to.equal(400);
      expect(await counts()).to.deep.equal(before);
    });

    it('validates a Liquid theme draft too (its layout files mirror the bundle, not the drafts)', async () => {
      const liquid = await givenInstalled(shop, 'ember-liquid');
      const home = structuredClone(liquid.bundle.templates.home);
      home.order = [...home.order].reverse();
      const saved = await save('home', home, 0, liquid.slug);
      expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
      expect(saved.body.data.draft.order).to.deep.equal(home.order);
    });
  });

  describe('DELETE /v1/themes/:slug/editor/draft', () => {
    it('discards one template’s draft (its version moves on, so an open tab gets 409); other drafts stay', async () => {
      const state = await editor();
      const res = await api.delete(`/v1/themes/${slug}/editor/draft?template_key=product`, shop.as);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.include({ template_key: 'product', has_draft: false, draft: null, version: state.templates.product.version + 1 });
      const again = await api.delete(`/v1/themes/${slug}/editor/draft?template_key=product`, shop.as);
      expect([again.status, again.body.error.code]).to.deep.equal([404, 'no_draft']);
      const stale = await save('product', bundle.templates.product, state.templates.product.version);
      expect(stale.status).to.equal(409);
      const after = await editor();
      expect(after.templates.home).to.include({ has_draft: true, version: state.templates.home.version });
      expect((await api.delete(`/v1/themes/${slug}/editor/draft`, shop.as)).status).to.equal(400);
      expect((await api.delete(`/v1/themes/${slug}/editor/draft?template_key=bogus`, shop.as)).status).to.equal(400);
    });
  });

  describe('publish, release history, rollback', () => {
    it('publishes the named drafts as release 1 with a snapshot; other drafts stay drafts; the live renderable theme changes', async () => {
      const before = await liveTheme();
      expect(before!.releaseNumber).to.equal(0);
      const product = structuredClone(bundle.templates.product);
      product.sections.main.settings.show_sku = true;
      const state = await editor();
      expect((await save('product', product, state.templates.product.version)).status).to.equal(200);
      const home = (await editor()).templates.home;

      const res = await publish({ template_keys: ['home'] });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const release = res.body.data;
      expect(release).to.include({ number: 1, kind: 'publish', published_by: shop.merchant.id, rolled_back_to: null });
      expect(release.template_keys).to.deep.equal(['home']);
      expect(release.draft_versions).to.deep.equal({ home: home.version });
      expect(release.snapshot.templates.home).to.deep.equal(home.draft);
      expect(release.snapshot.templates.product).to.deep.equal(installed.product);
      expect(release.snapshot.settings_data).to.deep.equal(bundle.config.settings_data);

      const after = await editor();
      expect(after.release_number).to.equal(1);
      expect(after.templates.home).to.include({ has_draft: false, version: home.version + 1 });
      expect(after.templates.home.live).to.deep.equal(home.draft);
      expect(after.templates.product.has_draft).to.equal(true);

      const live = await liveTheme();
      expect(live!.templates.home).to.deep.equal(home.draft);
      expect(live!.preview).to.equal(false);
      expect(live!.releaseNumber).to.equal(before!.releaseNumber + 1);
      const events = await app.platform.db.collection('events').find({ type: 'theme.released' }).toArray();
      expect(events.map((e) => e.payload.release.number)).to.deep.equal([1]);
    });

    it('refuses a publish with nothing to publish, or naming a key without a draft, and changes nothing', async () => {
      const before = await counts();
      const missing = await publish({ template_keys: ['cart'] });
      expect([missing.status, missing.body.error.code]).to.deep.equal([409, 'no_draft']);
      expect((await publish({ template_keys: [] })).status).to.equal(400);
      expect((await publish({ template_keys: ['home', 'home'] })).status).to.equal(400);
      expect((await publish({ template_keys: ['bogus'] })).status).to.equal(400);
      expect((await publish({ extra: true })).status).to.equal(400);
      const other = await givenInstalled(shop);
      const nothing = await publish({}, other.slug);
      expect([nothing.status, nothing.body.error.code]).to.deep.equal([409, 'nothing_to_publish']);
      expect(await counts()).to.deep.equal(before);
    });

    it('publishes the settings_data draft like a template, and two concurrent publishes make one release', async () => {
      const settings = structuredClone(bundle.config.settings_data);
      settings.current.color_accent = '#123456';
      const saved = await save('settings_data', settings, 0);
      expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
      expect((await editor()).settings).to.include({ has_draft: true, version: 1 });
      const [a, b] = await Promise.all([publish(), publish()]);
      expect([a.status, b.status].sort(), JSON.stringify([a.body, b.body])).to.deep.equal([201, 409]);
      const won = a.status === 201 ? a : b;
      expect(won.body.data.number).to.equal(2);
      expect(won.body.data.template_keys).to.deep.equal(['product', 'settings_data']);
      const state = await editor();
      expect(state.settings.live.current.color_accent).to.equal('#123456');
      expect(state.settings.has_draft).to.equal(false);
      expect(state.templates.product.live.sections.main.settings.show_sku).to.equal(true);
      expect((await liveTheme())!.settingsData.current.color_accent).to.equal('#123456');
    });

    it('lists the release history and shows one release with its snapshot', async () => {
      const list = await api.get(`/v1/themes/${slug}/releases`, shop.as);
      expect(list.status).to.equal(200);
      expect(list.body.data.map((r: { number: number }) => r.number)).to.deep.equal([1, 2]);
      expect(list.body.data[0]).to.not.have.property('snapshot');
      expect(list.body.page.next_cursor).to.equal(null);
      const one = await api.get(`/v1/themes/${slug}/releases/1`, shop.as);
      expect(one.status).to.equal(200);
      expect(one.body.data.snapshot.templates.home.sections.hero.blocks.heading.settings.heading).to.be.oneOf(['Tab A', 'Tab B']);
      const paged = await api.get(`/v1/themes/${slug}/releases?limit=1`, shop.as);
      expect(paged.body.data).to.have.length(1);
      const next = await api.get(`/v1/themes/${slug}/releases?limit=1&cursor=${paged.body.page.next_cursor}`, shop.as);
      expect(next.body.data[0].number).to.equal(2);
      for (const bad of ['99', 'abc', '-1', '1e3']) expect((await api.get(`/v1/themes/${slug}/releases/${bad}`, shop.as)).status).to.equal(404);
    });

    it('rolls back to a release as a new release (history only grows); release 0 is the theme as installed', async () => {
      const before = await liveTheme();
      const res = await api.post(`/v1/themes/${slug}/releases/1/rollback`, undefined, shop.as);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.data).to.include({ number: 3, kind: 'rollback', rolled_back_to: 1 });
      const one = (await api.get(`/v1/themes/${slug}/releases/1`, shop.as)).body.data;
      const state = await editor();
      expect(state.release_number).to.equal(3);
      expect(state.templates.home.live).to.deep.equal(one.snapshot.templates.home);
      expect(state.templates.product.live).to.deep.equal(installed.product);
      expect(state.settings.live).to.deep.equal(bundle.config.settings_data);
      const live = await liveTheme();
      expect(live!.releaseNumber).to.equal(before!.releaseNumber + 1);
      expect(live!.templates).to.deep.equal(one.snapshot.templates);

      const toInstall = await api.post(`/v1/themes/${slug}/releases/0/rollback`, undefined, shop.as);
      expect(toInstall.status).to.equal(201);
      expect(toInstall.body.data).to.include({ number: 4, rolled_back_to: 0 });
      expect((await editor()).templates.home.live).to.deep.equal(installed.home);
      const history = await api.get(`/v1/themes/${slug}/releases`, shop.as);
      expect(history.body.data.map((r: { number: number; kind: string }) => `${r.number}:${r.kind}`)).to.deep.equal([
        '1:publish',
        '2:publish',
        '3:rollback',
        '4:rollback',
      ]);
      for (const bad of ['99', 'x', '1.5']) expect((await api.post(`/v1/themes/${slug}/releases/${bad}/rollback`, undefined, shop.as)).status).to.equal(404);
      expect((await api.post(`/v1/themes/${slug}/releases/1/rollback`, { extra: 1 }, shop.as)).status).to.equal(400);
    });

    it('never loses a saved draft to a concurrent publish: each saved version is published or still a draft; a publish retried with its Idempotency-Key is replayed', async () => {
      for (let round = 0; round < 6; round++) {
        const home = (await editor()).templates.home;
        const based = await save('home', homeWith(`Round ${round}`, home.live), home.version);
        expect(based.status).to.equal(200);
        const [saved, published] = await Promise.all([
          save('home', homeWith(`Round ${round} bis`, home.live), based.body.data.version),
          publish({ template_keys: ['home'] }),
        ]);
        expect(published.status, JSON.stringify(published.body)).to.equal(201);
        const after = (await editor()).templates.home;
        if (saved.status === 200) {
          const publishedIt = published.body.data.draft_versions.home === saved.body.data.version;
          const stillDraft = after.has_draft && after.version === saved.body.data.version;
          expect(publishedIt || stillDraft, JSON.stringify({ saved: saved.body.data.version, release: published.body.data.draft_versions, after })).to.equal(
            true,
          );
          if (stillDraft) expect(after.draft.sections.hero.blocks.heading.settings.heading).to.equal(`Round ${round} bis`);
        } else {
          // The publish cleared the draft first: the stale save learns the new version.
          expect([saved.status, after.has_draft]).to.deep.equal([409, false]);
        }
        if (after.has_draft) expect((await api.delete(`/v1/themes/${slug}/editor/draft?template_key=home`, shop.as)).status).to.equal(200);
      }
      const home = (await editor()).templates.home;
      expect((await save('home', homeWith('Once', home.live), home.version)).status).to.equal(200);
      const key = { ...shop.as, headers: { 'Idempotency-Key': `publish-${Date.now()}` } };
      const first = await api.post(`/v1/themes/${slug}/editor/publish`, {}, key);
      const again = await api.post(`/v1/themes/${slug}/editor/publish`, {}, key);
      expect([first.status, again.status, again.headers.get('idempotent-replayed')]).to.deep.equal([201, 201, 'true']);
      expect(again.body.data.number).to.equal(first.body.data.number);
    });
  });

  describe('POST /v1/themes/:slug/preview-session', () => {
    it('gives a token that renders the draft of its template for its store only, until it expires', async () => {
      const state = await editor();
      expect((await save('home', homeWith('Preview me'), state.templates.home.version)).status).to.equal(200);
      const product = structuredClone(bundle.templates.product);
      product.order = ['related', 'main'];
      expect((await save('product', product, state.templates.product.version)).status).to.equal(200);

      const res = await api.post(`/v1/themes/${slug}/preview-session`, { template_key: 'home' }, shop.as);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const session = res.body.data;
      expect(session.token).to.match(/^emp_pv_[A-Za-z0-9_-]{43}$/);
      expect(session).to.include({ store_id: shop.store.id, store_theme_id: state.theme.id, template_key: 'home' });
      const minutes = (Date.parse(session.expires_at) - Date.now()) / 60_000;
      expect(minutes).to.be.within(29, 30.1);
      const stored = await app.platform.db.collection('theme_preview_sessions').findOne({});
      expect(JSON.stringify(stored)).to.not.include(session.token);

      const live = await liveTheme();
      const preview = await previewRenderableTheme(app.platform, shop.store.id, session.token);
      expect(preview).to.not.equal(null);
      expect(preview!.preview).to.equal(true);
      expect(preview!.storeThemeId).to.equal(state.theme.id);
      expect(preview!.templates.home!.sections.hero!.blocks.heading!.settings.heading).to.equal('Preview me');
      expect(preview!.templates.product).to.deep.equal(live!.templates.product);
      expect(preview!.sourceKey).to.equal(live!.sourceKey); // drafts change templates, never the Liquid sources
      // The live theme is untouched.
      expect(live!.templates.home!.sections.hero!.blocks.heading!.settings.heading).to.not.equal('Preview me');

      // Another store, an expired token, a garbage token: nothing.
      const other = await givenMerchantWithStore(api);
      expect(await previewRenderableTheme(app.platform, other.store.id, session.token)).to.equal(null);
      const later: Platform = { ...app.platform, clock: { now: () => new Date(Date.now() + 31 * 60_000) } };
      expect(await previewRenderableTheme(later, shop.store.id, session.token)).to.equal(null);
      // The maintenance sweep removes expired sessions (only those).
      expect(await sweepExpiredPreviewSessions(app.platform)).to.equal(0);
      expect(await sweepExpiredPreviewSessions(later)).to.be.greaterThan(0);
      expect(await app.platform.db.collection('theme_preview_sessions').countDocuments({ expires_at: { $lt: new Date(Date.now() + 31 * 60_000) } })).to.equal(
        0,
      );
      for (const token of ['', 'emp_pv_x', 'nope', session.token + 'x', 'x'.repeat(10_000)])
        expect(await previewRenderableTheme(app.platform, shop.store.id, token)).to.equal(null);
      expect(await previewRenderableTheme(app.platform, 'not-an-id', session.token)).to.equal(null);

      // A session without a template key previews every draft; a new save is seen at once.
      const all = await api.post(`/v1/themes/${slug}/preview-session`, {}, shop.as);
      expect([all.status, all.body.data.template_key]).to.deep.equal([201, null]);
      const everything = await previewRenderableTheme(app.platform, shop.store.id, all.body.data.token);
      expect(everything!.templates.product!.order).to.deep.equal(['related', 'main']);
      expect(everything!.templates.home!.sections.hero!.blocks.heading!.settings.heading).to.equal('Preview me');
      const version = (await editor()).templates.home.version;
      expect((await save('home', homeWith('Edited again'), version)).status).to.equal(200);
      const edited = await previewRenderableTheme(app.platform, shop.store.id, all.body.data.token);
      expect(edited!.templates.home!.sections.hero!.blocks.heading!.settings.heading).to.equal('Edited again');
    });

    it('previews a theme that is not the live one, and refuses bad input', async () => {
      const second = await givenInstalled(shop);
      const home = structuredClone(second.bundle.templates.home);
      home.order = ['hero'];
      expect((await save('home', home, 0, second.slug)).status).to.equal(200);
      const res = await api.post(`/v1/themes/${second.slug}/preview-session`, { template_key: 'home' }, shop.as);
      expect(res.status).to.equal(201);
      const preview = await previewRenderableTheme(app.platform, shop.store.id, res.body.data.token);
      expect(preview!.storeThemeId).to.equal(second.theme.id);
      expect(preview!.templates.home!.order).to.deep.equal(['hero']);
      expect((await liveTheme())!.storeThemeId).to.not.equal(second.theme.id);
      expect((await api.post(`/v1/themes/${slug}/preview-session`, { template_key: 'bogus' }, shop.as)).status).to.equal(400);
      expect((await api.post(`/v1/themes/${slug}/preview-session`, { extra: 1 }, shop.as)).status).to.equal(400);
    });
  });

  describe('ownership', () => {
    it('refuses another merchant on this store (403), finds nothing of this store from theirs (404), and asks for a session (401); an app reads with read_themes but never writes (401)', async () => {
      const before = await counts();
      const other = await givenMerchantWithStore(api);
      const onMine = { token: other.merchant.token, storeId: shop.store.id };
      const calls: [string, string, unknown?][] = [
        ['GET', `/v1/themes/${slug}/editor`],
        ['PUT', `/v1/themes/${slug}/editor/draft`, { template_key: 'home', content: homeWith('Hijack'), version: 0 }],
        ['DELETE', `/v1/themes/${slug}/editor/draft?template_key=home`],
        ['POST', `/v1/themes/${slug}/editor/publish`, {}],
        ['GET', `/v1/themes/${slug}/releases`],
        ['GET', `/v1/themes/${slug}/releases/1`],
        ['POST', `/v1/themes/${slug}/releases/1/rollback`],
        ['POST', `/v1/themes/${slug}/preview-session`, {}],
      ];
      for (const [method, path, body] of calls) {
        expect((await api.send(method, path, body, onMine)).status, `${method} ${path}`).to.equal(403);
        expect((await api.send(method, path, body, other.as)).status, `${method} ${path} (own store)`).to.equal(404);
        expect((await api.send(method, path, body)).status, `${method} ${path} (no session)`).to.equal(401);
      }
      // An app installed in the store: it reads the editor with read_themes; it never changes drafts or releases (merchant sessions only).
      const now = new Date();
      const installation = {
        _id: new ObjectId(),
        app_id: new ObjectId(),
        store_id: new ObjectId(shop.store.id),
        status: 'active' as const,
        grant_id: new ObjectId(),
        scopes: ['read_themes', 'write_themes'],
        webhook_url: 'https://app.example.com/webhooks',
        installed_by: new ObjectId(shop.merchant.id),
        metadata: {},
        metadata_version: 0,
        version: 1,
        installed_at: now,
        uninstalled_at: null,
        created_at: now,
        updated_at: now,
      };
      await installations(app.platform.db).insertOne(installation);
      const issued = await issueTokens(app.platform, {
        installation,
        scopes: installation.scopes,
        mode: 'offline',
        familyId: new ObjectId(),
        codeId: null,
        parentId: null,
      });
      const asApp = { token: issued.access_token, storeId: shop.store.id };
      expect((await api.get(`/v1/themes/${slug}/editor`, asApp)).status).to.equal(200);
      expect((await api.get(`/v1/themes/${slug}/releases`, asApp)).status).to.equal(200);
      for (const [method, path, body] of calls.filter(([m]) => m !== 'GET'))
        expect((await api.send(method, path, body, asApp)).status, `${method} ${path} (app)`).to.equal(401);

      const theirs = await givenInstalled(other);
      const mine = (await api.get('/v1/themes/installed', shop.as)).body.data[0].id;
      expect((await api.get(`/v1/themes/${theirs.slug}/editor?theme_id=${mine}`, other.as)).status).to.equal(404);
      const after = await counts();
      expect(after.releases).to.equal(before.releases);
      expect(after.drafts.filter((d) => String(d.store_id) === shop.store.id)).to.deep.equal(before.drafts.filter((d) => String(d.store_id) === shop.store.id));
    });
  });
});
