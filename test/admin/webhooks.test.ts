import { expect } from 'chai';
import { AdminBrowser, signedInAdmin } from '../helpers/admin.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { until } from '../helpers/waiting.js';
import { deliveryOf, givenSubscription, renameStore, useWebhooksApp } from '../helpers/webhooks.js';

/**
 * The admin's Webhooks (docs/admin.md, Webhooks) against a real webhooks worker and a local
 * receiver: the store's own subscriptions with their health, one added (its secret shown once),
 * edited, paused and re-enabled, its secret rotated and it deleted; its recent deliveries and a
 * delivery's attempts; Redeliver of a failed delivery through the log's rule and its guards.
 * Refusals: another merchant's store, webhook or delivery (404, nothing changed), another
 * webhook's delivery under this one's path, a missing or cross-site token, a bearer token.
 */
describe('Admin: Webhooks', () => {
  const { app, api, receiver } = useWebhooksApp(
    'admin_webhooks',
    {
      INTERNAL_SECRET: 'internal-secret-for-the-admin-webhooks-test-0123',
      WEBHOOK_RETRY_BASE_SECONDS: '0.05',
      WEBHOOK_RETRY_CAP_SECONDS: '0.2',
      JOBS_POLL_INTERVAL_MS: '100',
      WEBHOOK_SWEEP_INTERVAL_MS: '300',
    },
    { groups: ['webhooks'] },
  );
  let shop: GivenMerchantWithStore;
  let browser: AdminBrowser;
  const webhooks = (path = '') => `/admin/stores/${shop.store.id}/settings/webhooks${path}`;
  const subscription = async (id: string) => api.get(`/v1/operations/webhook-subscriptions/${id}`, shop.as);
  const secretIn = (html: string) => /whsec_[A-Za-z0-9_-]+/.exec(html)?.[0];

  before(async () => {
    shop = await givenMerchantWithStore(api);
    browser = await signedInAdmin(app, shop.merchant);
  });

  it('says what a webhook is and how to add one when the store has none', async () => {
    const list = await browser.get(webhooks());
    expect(list.status).to.equal(200);
    expect(list.html)
      .to.contain('No webhooks yet')
      .and.contain(`href="${webhooks('/new')}"`)
      .and.contain('aria-current="page">Settings');
  });

  it('adds a webhook, errors at their fields with the input kept, and shows its secret on that one page only', async () => {
    const bad = await browser.submit(webhooks('/new'), webhooks('/new'), {
      target_url: '',
      event_types: 'order.created\norder.exploded',
      description: '<b>sync</b>',
    });
    expect(bad.status).to.equal(400);
    expect(bad.html).to.match(/id="f-target_url"[^>]*aria-invalid="true"/);
    expect(bad.html).to.match(/id="f-event_types-error"[^>]*>&quot;order.exploded&quot; is not a known event type/);
    expect(bad.html).to.contain('&lt;b&gt;sync&lt;/b&gt;</textarea>');
    // The service's target rule, at its field.
    const refused = await browser.submit(webhooks('/new'), webhooks('/new'), { target_url: 'http://hooks.example.com/x', event_types: 'order.*' });
    expect(refused.status).to.equal(409);
    expect(refused.html).to.match(/id="f-target_url-error"[^>]*>must use https/);

    const made = await browser.submit(webhooks('/new'), webhooks('/new'), {
      target_url: `${receiver.url}/admin-made`,
      event_types: 'store.updated, product.*',
      description: '<b>ERP</b> sync',
    });
    expect(made.status).to.equal(201);
    const secret = secretIn(made.html)!;
    expect(secret).to.have.length(6 + 43);
    const [listed] = (await api.get('/v1/operations/webhook-subscriptions', shop.as)).body.data;
    expect(listed).to.include({ target_url: `${receiver.url}/admin-made`, description: '<b>ERP</b> sync', active: true });
    expect(listed.event_types).to.deep.equal(['store.updated', 'product.*']);
    expect(listed.owner).to.deep.equal({ type: 'merchant', id: shop.merchant.id });

    const list = await browser.get(webhooks());
    expect(list.html).to.contain(`${receiver.url}/admin-made`).and.contain('&lt;b&gt;ERP&lt;/b&gt; sync').and.contain('badge--ok">healthy');
    const page = await browser.get(webhooks(`/${listed.id}`));
    expect(page.status).to.equal(200);
    expect(page.html).to.contain('No deliveries yet');
    expect(page.html).to.not.contain('whsec_');

    // Its secret signs what the worker delivers: the receiver verifies it.
    receiver.expectSecret('/admin-made', secret);
    const first = await deliveryOf(api, shop.as, listed.id, await renameStore(app, api, shop.as));
    const eventId = await renameStore(app, api, shop.as);
    const second = await deliveryOf(api, shop.as, listed.id, eventId);
    expect([first.status, second.status]).to.deep.equal(['successful', 'successful']);
    expect(receiver.to('/admin-made').find((r) => r.eventId === eventId)?.verified).to.equal(true);
    // Its page lists the newest delivery first, as the API's `order=newest` does.
    const newest = (await api.get(`/v1/operations/webhook-deliveries?subscription_id=${listed.id}&order=newest`, shop.as)).body.data;
    expect(newest.map((d: { id: string }) => d.id)).to.deep.equal([second.id, first.id]);
    const withDeliveries = (await browser.get(webhooks(`/${listed.id}`))).html;
    expect(withDeliveries.indexOf(second.id)).to.be.greaterThan(0).and.lessThan(withDeliveries.indexOf(first.id));
    await api.delete(`/v1/operations/webhook-subscriptions/${listed.id}`, shop.as);
  });

  it('adds one webhook when the same Add form is sent twice, even at once, and both answers show its secret', async () => {
    const subscriptions = async () => (await api.get('/v1/operations/webhook-subscriptions?limit=100', shop.as)).body.data.length as number;
    const before = await subscriptions();
    const form = await browser.get(webhooks('/new'));
    const key = /name="form_key" value="([^"]+)"/.exec(form.html)?.[1];
    expect(key, 'the Add form carries a key').to.be.a('string');
    const fields = { csrf_token: AdminBrowser.csrfOf(form), form_key: key!, target_url: 'http://127.0.0.1:9/once', event_types: 'store.updated' };
    const sent = await Promise.all([1, 2].map(() => browser.post(webhooks('/new'), fields)));
    expect(sent.map((r) => r.status)).to.deep.equal([201, 201]);
    expect(secretIn(sent[0]!.html)).to.be.a('string').and.equal(secretIn(sent[1]!.html));
    expect(await subscriptions()).to.equal(before + 1);
  });

  it('shows a failing webhook’s health and its failed delivery, and redelivers it through the log’s guards', async () => {
    let down = true;
    receiver.on('/admin-down', () => ({ status: down ? 500 : 200 }));
    const sub = await givenSubscription(api, shop.as, { target_url: `${receiver.url}/admin-down`, event_types: ['store.updated'] });
    receiver.expectSecret('/admin-down', sub.secret);
    const eventId = await renameStore(app, api, shop.as);
    const failed = await deliveryOf(api, shop.as, sub.id, eventId);
    expect(failed.status).to.equal('failed');

    const at = webhooks(`/${sub.id}`);
    const list = await browser.get(webhooks());
    expect(list.html).to.contain('badge--warn">failing');
    const page = await browser.get(at);
    expect(page.html).to.contain('badge--warn">failing').and.contain('HTTP 500').and.contain('Webhook endpoint returned HTTP 500');
    expect(page.html).to.contain(`${at}/deliveries/${failed.id}`).and.contain(`<code class="muted">${eventId}</code>`).and.contain('badge--bad">failed');
    expect((await browser.get(`${at}?status=successful`)).html).to.contain('No delivery with this status.');
    expect((await browser.get(`${at}?status=failed`)).html).to.contain(`${at}/deliveries/${failed.id}`);

    const deliveryPage = `${at}/deliveries/${failed.id}`;
    const shown = await browser.get(deliveryPage);
    expect(shown.status).to.equal(200);
    expect(shown.html).to.contain(`<code>${eventId}</code>`).and.contain('1.0').and.contain('Redeliver');

    // Paused, the webhook takes no redelivery: the log's guard, on the page.
    const paused = await browser.submit(at, at, { target_url: sub.target_url, event_types: 'store.updated', description: '' });
    expect(paused.status).to.equal(303);
    expect((await subscription(sub.id)).body.data.active).to.equal(false);
    const refused = await browser.submit(deliveryPage, `${deliveryPage}/redeliver`, {});
    expect(refused.status).to.equal(409);
    expect(refused.html).to.contain('re-enable it first');
    expect((await api.get(`/v1/operations/webhook-deliveries/${failed.id}`, shop.as)).body.data.series).to.equal(1);

    const resumed = await browser.submit(at, at, { target_url: sub.target_url, event_types: 'store.updated', description: '', active: 'on' });
    expect(resumed.status).to.equal(303);
    expect((await browser.get(at)).html).to.contain('The webhook is active again.');
    down = false;
    const sent = await browser.submit(deliveryPage, `${deliveryPage}/redeliver`, {});
    expect([sent.status, sent.location]).to.deep.equal([303, deliveryPage]);
    const delivered = await until('the redelivery to succeed', async () => {
      const d = (await api.get(`/v1/operations/webhook-deliveries/${failed.id}`, shop.as)).body.data;
      return d.status === 'successful' ? d : null;
    });
    expect(delivered.series).to.equal(2);
    expect(receiver.to('/admin-down').filter((r) => r.eventId === eventId && r.verified)).to.not.deep.equal([]);
    const after = await browser.get(deliveryPage);
    expect(after.html).to.contain('badge--ok">successful').and.not.contain('>Redeliver</button>');
    // Only a failed delivery is sent again.
    const twice = await browser.post(`${deliveryPage}/redeliver`, { csrf_token: AdminBrowser.csrfOf(await browser.get(at)) });
    expect(twice.status).to.equal(409);
    expect(twice.html).to.contain('Only a failed delivery can be redelivered');
  });

  it('edits a webhook, saying errors at their fields, and nothing when nothing changed', async () => {
    const sub = await givenSubscription(api, shop.as, { description: 'Old' });
    const at = webhooks(`/${sub.id}`);
    const shown = await browser.get(at);
    expect(shown.html).to.contain('>order.created</textarea>').and.contain('name="active" value="on" checked');
    const bad = await browser.submit(at, at, { target_url: sub.target_url, event_types: '', description: 'New', active: 'on' });
    expect(bad.status).to.equal(400);
    expect(bad.html)
      .to.match(/id="f-event_types-error"[^>]*>must name at least one event type/)
      .and.contain('>New</textarea>');
    const same = await browser.submit(at, at, { target_url: sub.target_url, event_types: 'order.created', description: 'Old', active: 'on' });
    expect(same.status).to.equal(303);
    expect((await browser.get(at)).html).to.contain('Nothing to save');
    expect((await subscription(sub.id)).body.data.updated_at).to.equal(sub.updated_at);
    const saved = await browser.submit(at, at, {
      target_url: 'https://hooks.example.com/v2',
      event_types: 'order.*\ncustomer.created',
      description: '',
      active: 'on',
    });
    expect(saved.status).to.equal(303);
    expect((await subscription(sub.id)).body.data).to.deep.include({
      target_url: 'https://hooks.example.com/v2',
      event_types: ['order.*', 'customer.created'],
      description: null,
      active: true,
    });
  });

  it('rotates a webhook’s secret after a confirm step, showing the new one once, and deletes a webhook after one', async () => {
    const sub = await givenSubscription(api, shop.as);
    const at = webhooks(`/${sub.id}`);
    const confirm = await browser.get(`${at}/rotate-secret`);
    expect(confirm.status).to.equal(200);
    expect(confirm.html).to.contain('Rotate the signing secret?');
    const wrong = await browser.post(`${at}/rotate-secret`, { csrf_token: AdminBrowser.csrfOf(confirm), grace_period_seconds: '99' });
    expect(wrong.status).to.equal(400);
    const rotated = await browser.post(`${at}/rotate-secret`, { csrf_token: AdminBrowser.csrfOf(confirm), grace_period_seconds: '3600' });
    expect(rotated.status).to.equal(201);
    const secret = secretIn(rotated.html);
    expect(secret).to.be.a('string').and.not.equal(sub.secret);
    const view = (await subscription(sub.id)).body.data;
    expect(Date.parse(view.previous_secret_expires_at) - Date.parse(view.secret_rotated_at)).to.equal(3600_000);
    expect((await browser.get(at)).html).to.not.contain('whsec_');

    const deleting = await browser.get(`${at}/delete`);
    expect(deleting.html).to.contain('Delete this webhook?');
    const deleted = await browser.post(`${at}/delete`, { csrf_token: AdminBrowser.csrfOf(deleting) });
    expect([deleted.status, deleted.location]).to.deep.equal([303, webhooks()]);
    expect((await subscription(sub.id)).status).to.equal(404);
    expect((await browser.get(at)).status).to.equal(404);
  });

  it('refuses another merchant, another webhook’s delivery, a missing or cross-site token and a bearer token, changing nothing', async () => {
    receiver.on('/admin-kept', () => ({ status: 204 }));
    const sub = await givenSubscription(api, shop.as, { target_url: `${receiver.url}/admin-kept`, event_types: ['store.updated'] });
    receiver.expectSecret('/admin-kept', sub.secret);
    const other = await givenSubscription(api, shop.as, { target_url: 'https://hooks.example.com/other', event_types: ['order.created'] });
    const delivery = await deliveryOf(api, shop.as, sub.id, await renameStore(app, api, shop.as));
    const at = webhooks(`/${sub.id}`);

    const stranger = await givenMerchantWithStore(api);
    const theirs = await signedInAdmin(app, stranger.merchant);
    const strangerCsrf = AdminBrowser.csrfOf(await theirs.get('/admin/stores/new'));
    const inTheirs = `/admin/stores/${stranger.store.id}/settings/webhooks/${sub.id}`;
    for (const path of [webhooks(), at, `${at}/deliveries/${delivery.id}`, inTheirs, `${inTheirs}/deliveries/${delivery.id}`, `${inTheirs}/delete`]) {
      const page = await theirs.get(path);
      expect(page.status, path).to.equal(404);
      expect(page.html).to.not.contain(sub.target_url);
    }
    for (const [path, fields] of [
      [inTheirs, { target_url: 'https://evil.example.com/', event_types: '*', active: 'on' }],
      [`${inTheirs}/delete`, {}],
      [`${inTheirs}/rotate-secret`, { grace_period_seconds: '0' }],
      [`${inTheirs}/deliveries/${delivery.id}/redeliver`, {}],
    ] as const) {
      expect((await theirs.post(path, { csrf_token: strangerCsrf, ...fields })).status, path).to.equal(404);
    }
    // Another webhook's delivery under this one's path, and a malformed id: the 404 page.
    expect((await browser.get(webhooks(`/${other.id}/deliveries/${delivery.id}`))).status).to.equal(404);
    expect((await browser.get(webhooks('/not-an-id'))).status).to.equal(404);

    const csrf = AdminBrowser.csrfOf(await browser.get(at));
    const change = { target_url: 'https://evil.example.com/', event_types: '*', active: 'on' };
    for (const [fields, headers] of [
      [change, {}],
      [{ ...change, csrf_token: strangerCsrf }, {}],
      [{ ...change, csrf_token: csrf }, { 'sec-fetch-site': 'cross-site' }],
    ] as const) {
      expect((await browser.post(at, fields, headers)).status, JSON.stringify(fields)).to.equal(403);
    }
    expect((await browser.post(`${at}/delete`, {})).status).to.equal(403);
    expect((await browser.get(at, { authorization: `Bearer ${shop.merchant.token}` })).status).to.equal(403);
    const kept = (await subscription(sub.id)).body.data;
    expect(kept).to.include({ target_url: sub.target_url, updated_at: sub.updated_at });
    expect((await api.get(`/v1/operations/webhook-deliveries/${delivery.id}`, shop.as)).body.data.series).to.equal(1);
  });
});
