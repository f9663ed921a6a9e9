import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { authorizeApp, givenPublishedApp, installApp, type GivenApp } from '../helpers/apps.js';
import { givenMerchant, givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { runProcfileProcess } from '../helpers/processes.js';
import { verifyBySpec } from '../helpers/spec-verifier.js';
import { until } from '../helpers/waiting.js';
import { useWebhooksApp } from '../helpers/webhooks.js';

const OPERATOR = 'op-extensions@example.com';
const LIFECYCLE = '2026-06-05.ws13.lifecycle';
const STATUS_CHANGED = 'app_extension.lifecycle.status_changed';

const EXTENSIONS = [
  { kind: 'admin_ui', handle: 'order-panel', name: 'Order panel', target: 'admin.order.details', config: {} },
  {
    kind: 'checkout_ui',
    handle: 'gift-note',
    name: 'Gift note',
    target: 'checkout.payment-method.after',
    config: { settings: { label: 'Add a note', max: 200 } },
  },
  {
    kind: 'theme_app_block',
    handle: 'stars',
    name: 'Star rating',
    target: 'section',
    config: { type: 'inline', heading: 'Rated 4.8', settings: { show_count: true } },
  },
];

/**
 * The extension registry (docs/extensions.md): rows made by an install, the merchant's
 * enable/disable delivered to the app as a signed lifecycle webhook, and the extensions worker
 * revoking every row of an uninstalled installation once, even when killed half-way.
 */
describe('App extensions: the registry, merchant control and revocation by the extensions worker', () => {
  const { app, api, receiver, startWorker } = useWebhooksApp(
    'app_extensions',
    {
      OPERATOR_EMAILS: OPERATOR,
      WEBHOOK_RETRY_BASE_SECONDS: '0.05',
      WEBHOOK_RETRY_CAP_SECONDS: '0.4',
      JOBS_POLL_INTERVAL_MS: '100',
      EXTENSIONS_SWEEP_INTERVAL_MS: '300',
      EXTENSIONS_REVOKE_LEASE_MS: '1500',
    },
    { groups: ['webhooks'] },
  );
  let operatorToken: string;
  before(async () => {
    operatorToken = (await givenMerchant(api, { email: OPERATOR })).token;
  });

  async function givenAppWithExtensions(path: string, extensions: unknown[] = EXTENSIONS): Promise<GivenApp & { path: string }> {
    const partner = await givenPublishedApp(api, operatorToken, { extensions });
    receiver.expectSecret(path, partner.webhookSecret);
    return { ...partner, path };
  }
  const listOf = (shop: GivenMerchantWithStore, installationId: string) => api.get(`/v1/app-store/installations/${installationId}/extensions`, shop.as);
  const rowsIn = (installationId: string) =>
    app.platform.db
      .collection('app_extension_registrations')
      .find({ installation_id: new ObjectId(installationId) })
      .toArray();

  it('makes one row per manifest extension at install, each in its kind’s initial state; the app reads its own with its token', async () => {
    const shop = await givenMerchantWithStore(api);
    const partner = await givenAppWithExtensions('/rows');
    const { installationId, token } = await installApp(api, partner, shop, { scopes: ['read_orders'], webhookUrl: `${receiver.url}/rows` });
    const res = await listOf(shop, installationId);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const { extensions, functions, lifecycle, developer_handoff } = res.body.data;
    expect(functions).to.deep.equal([]);
    expect(extensions.map((e: any) => [e.kind, e.handle, e.state])).to.deep.equal([
      ['admin_ui', 'order-panel', 'enabled'],
      ['checkout_ui', 'gift-note', 'disabled'],
      ['theme_app_block', 'stars', 'enabled'],
    ]);
    const gift = extensions[1];
    expect(gift).to.include({
      target: 'checkout.payment-method.after',
      manifest_schema_version: '2026-06-05.ws13',
      revoked_at: null,
      version: 1,
      blocking: false,
    });
    expect(gift.settings).to.deep.equal({ label: 'Add a note', max: 200 });
    expect(gift.last_transition).to.deep.include({ from: null, to: 'disabled', reason: 'installed' });
    expect(lifecycle).to.deep.include({ contract_version: LIFECYCLE, counts: { enabled: 2, disabled: 1, revoked: 0 }, revocation: null });
    expect(lifecycle.installation).to.include({ id: installationId, status: 'active' });
    expect(developer_handoff).to.deep.include({
      installation_id: installationId,
      enabled_surfaces: ['admin_ui:admin.order.details', 'theme_app_block:section'],
      contract_versions: { manifest_schema: '2026-06-05.ws13', lifecycle: LIFECYCLE, theme_bundle_schema: '2026-05-json-contract', renderer: '1.0.0' },
    });
    expect(developer_handoff.app).to.include({ id: partner.app.id, handle: partner.app.handle });

    // The app itself, with its own token (no X-Store-Id: the token names the store).
    const mine = await api.get(`/v1/app-store/installations/${installationId}/extensions`, { token });
    expect(mine.status, JSON.stringify(mine.body)).to.equal(200);
    expect(mine.body.data.extensions).to.have.length(3);

    // Authorizing again (same grant) makes no second row.
    await authorizeApp(api, partner, shop, { scopes: ['read_orders'], webhookUrl: `${receiver.url}/rows` });
    expect(await rowsIn(installationId)).to.have.length(3);
  });

  it('reconciles on re-authorization after a new version: new rows added, dropped ones revoked, the merchant’s state kept', async () => {
    const shop = await givenMerchantWithStore(api);
    const partner = await givenAppWithExtensions('/reconcile');
    const { installationId } = await installApp(api, partner, shop, { scopes: ['read_orders'], webhookUrl: `${receiver.url}/reconcile` });
    const before = (await listOf(shop, installationId)).body.data.extensions;
    const stars = before.find((e: any) => e.handle === 'stars');
    const off = await api.patch(`/v1/app-store/installations/${installationId}/extensions/${stars.id}`, { state: 'disabled', version: stars.version }, shop.as);
    expect(off.status, JSON.stringify(off.body)).to.equal(200);

    // Version 2 drops order-panel, keeps stars and gift-note, adds a second block.
    const next = [
      EXTENSIONS[1],
      { ...EXTENSIONS[2], name: 'Stars v2' },
      { kind: 'theme_app_block', handle: 'badge', name: 'Badge', target: 'body', config: {} },
    ];
    const manifest = { ...partner.app.published, version: '2.0.0', extensions: next };
    const v2 = await api.post(`/v1/app-store/developers/apps/${partner.app.id}/versions`, { manifest }, { token: partner.developer.merchant.token });
    expect(v2.status, JSON.stringify(v2.body)).to.equal(201);
    const approve = await api.post(`/v1/operations/app-reviews/${v2.body.data.latest_version.id}/approve`, undefined, { token: operatorToken });
    expect(approve.status, JSON.stringify(approve.body)).to.equal(200);
    await authorizeApp(api, partner, shop, { scopes: ['read_orders'], webhookUrl: `${receiver.url}/reconcile` });

    const after = (await listOf(shop, installationId)).body.data;
    const byHandle = new Map<string, any>(after.extensions.map((e: any) => [e.handle, e]));
    expect(byHandle.get('order-panel')).to.include({ state: 'revoked' });
    expect(byHandle.get('order-panel').revoked_at).to.be.a('string');
    expect(byHandle.get('order-panel').last_transition).to.include({ reason: 'removed_from_app' });
    expect(byHandle.get('stars')).to.include({ state: 'disabled', name: 'Stars v2', id: stars.id });
    expect(byHandle.get('badge')).to.include({ state: 'enabled' });
    expect(after.extensions).to.have.length(4);
    expect(after.lifecycle.counts).to.deep.equal({ enabled: 1, disabled: 2, revoked: 1 });
  });

  it('records and delivers a signed app_extension.lifecycle.status_changed for each enable/disable; a stale version is 409 with the row', async () => {
    const shop = await givenMerchantWithStore(api);
    const partner = await givenAppWithExtensions('/status');
    const { installationId } = await installApp(api, partner, shop, { scopes: ['read_orders'], webhookUrl: `${receiver.url}/status` });
    const gift = (await listOf(shop, installationId)).body.data.extensions.find((e: any) => e.handle === 'gift-note');
    const on = await api.patch(
      `/v1/app-store/installations/${installationId}/extensions/${gift.id}`,
      { state: 'enabled', settings: { label: 'A note for them' }, version: 1 },
      shop.as,
    );
    expect(on.status, JSON.stringify(on.body)).to.equal(200);
    expect(on.body.data).to.include({ state: 'enabled', version: 2 });
    expect(on.body.data.settings).to.deep.equal({ label: 'A note for them', max: 200 });
    expect(on.body.data.last_transition).to.deep.include({
      from: 'disabled',
      to: 'enabled',
      reason: 'merchant',
      by: { type: 'merchant', id: shop.merchant.id },
    });

    const stale = await api.patch(`/v1/app-store/installations/${installationId}/extensions/${gift.id}`, { state: 'disabled', version: 1 }, shop.as);
    expect(stale.status).to.equal(409);
    expect(stale.body.error.code).to.equal('registration_version_conflict');
    expect(stale.body.data).to.include({ id: gift.id, state: 'enabled', version: 2 });

    const delivered = await until(
      'the status change at the partner',
      async () => receiver.to('/status').find((r) => r.verified && r.headers['x-platform-event-type'] === STATUS_CHANGED) ?? null,
      20_000,
    );
    expect(verifyBySpec(partner.webhookSecret, delivered.headers, delivered.raw)).to.equal(true);
    const body = JSON.parse(delivered.body);
    expect(body.payload).to.deep.include({ previous_state: 'disabled', state: 'enabled', changed: ['state', 'settings'], contract_version: LIFECYCLE });
    expect(body.payload.registration).to.include({ id: gift.id, handle: 'gift-note' });
    expect(body.payload.installation).to.deep.equal({ id: installationId });
    expect(await app.platform.db.collection('events').countDocuments({ type: STATUS_CHANGED, store_id: new ObjectId(shop.store.id) })).to.equal(1);
  });

  it('refuses bad changes with 4xx and changes nothing: unknown or mistyped settings, blocking on a non-validation row, the wrong route for the kind', async () => {
    const shop = await givenMerchantWithStore(api);
    const partner = await givenAppWithExtensions('/bad');
    const { installationId } = await installApp(api, partner, shop, { scopes: ['read_orders'], webhookUrl: `${receiver.url}/bad` });
    const gift = (await listOf(shop, installationId)).body.data.extensions.find((e: any) => e.handle === 'gift-note');
    const path = `/v1/app-store/installations/${installationId}/extensions/${gift.id}`;
    const cases: [unknown, number, string][] = [
      [{ settings: { colour: 'red' }, version: 1 }, 400, 'body.settings.colour: is not a setting the extension declares (label, max)'],
      [{ settings: { max: 'lots' }, version: 1 }, 400, 'body.settings.max: must be a number'],
      [{ blocking: true, version: 1 }, 400, 'body.blocking: only a validation function can block checkout'],
      [{ state: 'revoked', version: 1 }, 400, 'body.state'],
      [{ version: 1 }, 400, 'give state, settings or blocking'],
      [{ state: 'enabled' }, 400, 'body.version'],
      [{ state: 'enabled', version: 1, extra: true }, 400, 'extra'],
    ];
    for (const [body, status, detail] of cases) {
      const res = await api.patch(path, body, shop.as);
      expect(res.status, JSON.stringify(res.body)).to.equal(status);
      expect(JSON.stringify(res.body.error)).to.include(detail);
    }
    // An extension through the functions route (and the reverse) is not found.
    expect((await api.patch(`/v1/app-store/installations/${installationId}/functions/${gift.id}`, { state: 'enabled', version: 1 }, shop.as)).status).to.equal(
      404,
    );
    const [row] = (await rowsIn(installationId)).filter((r) => r.handle === 'gift-note');
    expect(row).to.include({ version: 1, state: 'disabled' });
  });

  it('gives another merchant, another app, a customer and an uninstalled installation nothing', async () => {
    const shop = await givenMerchantWithStore(api);
    const other = await givenMerchantWithStore(api);
    const partner = await givenAppWithExtensions('/walls');
    const stranger = await givenAppWithExtensions('/walls-other');
    const { installationId } = await installApp(api, partner, shop, { scopes: ['read_orders'], webhookUrl: `${receiver.url}/walls` });
    const { token: strangerToken } = await installApp(api, stranger, shop, { scopes: ['read_orders'], webhookUrl: `${receiver.url}/walls-other` });
    const gift = (await listOf(shop, installationId)).body.data.extensions.find((e: any) => e.handle === 'gift-note');
    const patch = `/v1/app-store/installations/${installationId}/extensions/${gift.id}`;

    // Another merchant on their own store: not found; naming this store: forbidden.
    expect((await listOf(other, installationId)).status).to.equal(404);
    expect((await api.patch(patch, { state: 'enabled', version: 1 }, other.as)).status).to.equal(404);
    expect(
      (await api.get(`/v1/app-store/installations/${installationId}/extensions`, { token: other.merchant.token, storeId: shop.store.id })).status,
    ).to.equal(403);
    // Another app installed in the same store, with its own token: not found. No app may write.
    expect((await api.get(`/v1/app-store/installations/${installationId}/extensions`, { token: strangerToken })).status).to.equal(404);
    expect((await api.patch(patch, { state: 'enabled', version: 1 }, { token: strangerToken })).status).to.equal(401);
    // No credentials at all.
    expect((await api.get(`/v1/app-store/installations/${installationId}/extensions`)).status).to.equal(401);
    const [row] = (await rowsIn(installationId)).filter((r) => r.handle === 'gift-note');
    expect(row).to.include({ version: 1, state: 'disabled' });

    // Uninstalled: the merchant's change is not found.
    expect((await api.delete(`/v1/app-store/installations/${installationId}`, shop.as)).status).to.equal(200);
    expect((await api.patch(patch, { state: 'enabled', version: 1 }, shop.as)).status).to.equal(404);
  });

  it('on uninstall the extensions worker revokes every row once; a re-install gets fresh rows and the revoked ones stay as history', async () => {
    const shop = await givenMerchantWithStore(api);
    const partner = await givenAppWithExtensions('/uninstall');
    const { installationId } = await installApp(api, partner, shop, { scopes: ['read_orders'], webhookUrl: `${receiver.url}/uninstall` });
    expect((await api.delete(`/v1/app-store/installations/${installationId}`, shop.as)).status).to.equal(200);
    const marker = (await app.platform.db.collection('app_installations').findOne({ _id: new ObjectId(installationId) }))!.extension_revocation;
    expect(marker).to.include({ status: 'pending', runs: 0 });

    const worker = await startWorker('extensions');
    try {
      const done = await until('the revocation done', async () => {
        const l = (await listOf(shop, installationId)).body.data.lifecycle;
        return l.revocation?.status === 'done' ? l : null;
      });
      expect(done.counts).to.deep.equal({ enabled: 0, disabled: 0, revoked: 3 });
      expect(done.revocation.rows_revoked).to.equal(3);
      const rows = await rowsIn(installationId);
      for (const r of rows) {
        expect(r).to.include({ state: 'revoked', version: 2 });
        expect(r.revoked_at).to.be.instanceOf(Date);
        expect(r.last_transition).to.include({ reason: 'uninstalled', to: 'revoked' });
      }
      // A re-install: fresh rows beside the revoked history.
      await authorizeApp(api, partner, shop, { scopes: ['read_orders'], webhookUrl: `${receiver.url}/uninstall` });
      const listed = (await listOf(shop, installationId)).body.data;
      expect(listed.extensions).to.have.length(6);
      expect(listed.extensions.slice(0, 3).map((e: any) => e.state)).to.deep.equal(['enabled', 'disabled', 'enabled']);
      expect(listed.extensions.slice(3).every((e: any) => e.state === 'revoked')).to.equal(true);
      const old = listed.extensions[3];
      const back = await api.patch(`/v1/app-store/installations/${installationId}/extensions/${old.id}`, { state: 'enabled', version: old.version }, shop.as);
      expect(back.status).to.equal(409);
      expect(back.body.error.code).to.equal('registration_revoked');
    } finally {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
  });

  it('a worker killed half-way through a revocation leaves rows live or revoked, and a second worker finishes it, each row once', async () => {
    const many = Array.from({ length: 8 }, (_, i) => ({
      kind: 'admin_ui',
      handle: `panel-${i}`,
      name: `Panel ${i}`,
      target: 'admin.product.details',
      config: {},
    }));
    const shop = await givenMerchantWithStore(api);
    const partner = await givenAppWithExtensions('/killed', many);
    const { installationId } = await installApp(api, partner, shop, { scopes: ['read_orders'], webhookUrl: `${receiver.url}/killed` });
    expect((await api.delete(`/v1/app-store/installations/${installationId}`, shop.as)).status).to.equal(200);

    const slow = { ...app.childEnv(), EXTENSIONS_REVOKE_BATCH_SIZE: '1', EXTENSIONS_REVOKE_PAUSE_MS: '400' };
    const first = runProcfileProcess('extensions', slow);
    await first.waitFor('extensions.revoke_progress');
    first.child.kill('SIGKILL');
    await first.exited;
    const half = await rowsIn(installationId);
    const revokedFirst = new Map(half.filter((r) => r.state === 'revoked').map((r) => [r._id.toHexString(), r.revoked_at.getTime()]));
    expect(revokedFirst.size).to.be.within(1, 7);
    const marker = (await app.platform.db.collection('app_installations').findOne({ _id: new ObjectId(installationId) }))!.extension_revocation;
    expect(marker).to.include({ status: 'pending', runs: 1 });

    const second = await startWorker('extensions');
    try {
      await until('the revocation finished by the second worker', async () => {
        const m = (await app.platform.db.collection('app_installations').findOne({ _id: new ObjectId(installationId) }))!.extension_revocation;
        return m.status === 'done' ? m : null;
      });
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
    const rows = await rowsIn(installationId);
    expect(rows).to.have.length(8);
    for (const r of rows) {
      expect(r).to.include({ state: 'revoked', version: 2 });
      const first = revokedFirst.get(r._id.toHexString());
      if (first !== undefined) expect(r.revoked_at.getTime()).to.equal(first);
    }
  });
});
