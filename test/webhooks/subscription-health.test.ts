import { expect } from 'chai';
import { readOutbox, type OutboxEntry } from '../../src/messages/index.js';
import { authorizeApp, givenDeveloper, givenSubmittedApp, type GivenApp } from '../helpers/apps.js';
import { givenMerchant, givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { freePort, until } from '../helpers/waiting.js';
import { givenSubscriptionTo, renameStore, useWebhooksApp } from '../helpers/webhooks.js';

const SECRET = 'internal-secret-for-the-subscription-health-tests-0123';
const OPERATOR = 'op-subscription-health@example.com';

/**
 * Subscription health (docs/webhooks.md, Subscription health): the web process, two webhooks
 * workers (real processes; the second one takes retries from the queue beside the first) and a
 * receiver answering 500 where told. Each test has its own store and endpoint path.
 */
describe('Webhook subscription health: failing, disabled, and the notices to whoever owns the subscription', () => {
  const { app, api, receiver, startWorker } = useWebhooksApp('webhooks_health', {
    OPERATOR_EMAILS: OPERATOR,
    INTERNAL_SECRET: SECRET,
    WEBHOOK_RETRY_BASE_SECONDS: '0.05',
    WEBHOOK_RETRY_CAP_SECONDS: '0.2',
    WEBHOOK_TIMEOUT_MS: '1500',
    JOBS_POLL_INTERVAL_MS: '100',
    WEBHOOK_SWEEP_INTERVAL_MS: '300',
  });
  let operatorToken: string;
  before(async () => {
    await startWorker();
    await startWorker('webhooks', { WEBHOOKS_INTERNAL_PORT: String(await freePort()) });
    operatorToken = (await givenMerchant(api, { email: OPERATOR })).token;
  });

  let shop: GivenMerchantWithStore;
  beforeEach(async () => {
    shop = await givenMerchantWithStore(api);
  });

  const notices = async (email: string, kind?: string): Promise<OutboxEntry[]> =>
    (await readOutbox(app.platform, email)).filter((m) => m.kind.startsWith('webhook_subscription_') && (!kind || m.kind === kind));
  const waitForNotices = (email: string, kind: string, count: number) =>
    until(`${count} × ${kind} to ${email}`, async () => ((await notices(email, kind)).length >= count ? notices(email, kind) : null));
  /** Waits long enough for a duplicate to show, if one were coming (a few retries and sweeps). */
  const settle = () => new Promise((r) => setTimeout(r, 1500));

  const subscribe = async (path: string): Promise<string> => (await givenSubscriptionTo(api, shop.as, receiver, path)).id;
  const view = async (id: string) => (await api.get(`/v1/operations/webhook-subscriptions/${id}`, shop.as)).body.data;
  const waitForHealth = (id: string, health: string) =>
    until(`subscription ${id} to be ${health}`, async () => {
      const v = await view(id);
      return v.health === health ? v : null;
    });
  const changeStore = async (times = 1) => {
    for (let i = 0; i < times; i++) await renameStore(app, api, shop.as);
  };

  it('starts healthy, with the health fields in every view', async () => {
    const id = await subscribe('/health-new');
    const v = await view(id);
    expect(v).to.include({ health: 'healthy', failure_streak: 0, last_error: null, failing_since: null, last_success_at: null });
    const [listed] = (await api.get('/v1/operations/webhook-subscriptions', shop.as)).body.data;
    expect(listed).to.include({ id, health: 'healthy', failure_streak: 0 });
  });

  it('goes failing with one message to the merchant, then disabled with one more, and a re-enable starts a new episode', async () => {
    let down = true;
    receiver.on('/health-down', () => ({ status: down ? 500 : 200 }));
    const id = await subscribe('/health-down');
    await changeStore(2);

    const failing = await waitForHealth(id, 'failing');
    expect(failing.active).to.equal(true);
    expect(failing.failure_streak).to.be.at.least(3);
    expect(failing.last_error).to.include({ status: 500, message: 'Webhook endpoint returned HTTP 500' });
    expect(Date.parse(failing.failing_since)).to.be.at.most(Date.parse(failing.last_error.at));
    expect(failing.last_success_at).to.equal(null);
    const [told] = await waitForNotices(shop.merchant.email, 'webhook_subscription_failing', 1);
    expect(told!.subject).to.equal(`Webhook endpoint failing: ${receiver.url}/health-down`);
    expect(told!.text).to.include(id).and.to.include('Webhook endpoint returned HTTP 500').and.to.include(`Failing since: ${failing.failing_since}`);
    expect(told!.text).to.include(`GET /v1/operations/webhook-deliveries?subscription_id=${id}&status=retrying`);

    // Five deliveries in a row that fail every attempt disable it (the rule of Outcomes and retries).
    await changeStore(3);
    const disabled = await waitForHealth(id, 'disabled');
    expect(disabled).to.include({ active: false, disabled_reason: 'failing' });
    const [off] = await waitForNotices(shop.merchant.email, 'webhook_subscription_disabled', 1);
    expect(off!.text).to.include(`PATCH /v1/operations/webhook-subscriptions/${id} with {"active": true}`);
    await settle();
    expect(await notices(shop.merchant.email, 'webhook_subscription_failing')).to.have.length(1);
    expect(await notices(shop.merchant.email, 'webhook_subscription_disabled')).to.have.length(1);

    // Re-enabled: healthy, a new episode; its next failures tell the merchant again, once.
    const enabled = await api.patch(`/v1/operations/webhook-subscriptions/${id}`, { active: true }, shop.as);
    expect(enabled.body.data).to.include({ active: true, health: 'healthy', failure_streak: 0, failing_since: null, disabled_reason: null });
    expect(enabled.body.data.last_error).to.include({ status: 500 }); // kept: what went wrong last
    await changeStore();
    await waitForHealth(id, 'failing');
    await waitForNotices(shop.merchant.email, 'webhook_subscription_failing', 2);
    down = false;
    await changeStore();
    await waitForHealth(id, 'healthy');
    await settle();
    expect(await notices(shop.merchant.email, 'webhook_subscription_failing')).to.have.length(2);
  });

  it('a success ends the episode: the streak resets, health is healthy again, and only a new failure tells again', async () => {
    let down = true;
    receiver.on('/health-flaky', () => ({ status: down ? 503 : 204 }));
    const id = await subscribe('/health-flaky');
    await changeStore();
    await waitForHealth(id, 'failing');
    await waitForNotices(shop.merchant.email, 'webhook_subscription_failing', 1);

    down = false; // the delivery's next retry succeeds
    const healthy = await waitForHealth(id, 'healthy');
    expect(healthy).to.include({ failure_streak: 0, failing_since: null, active: true });
    expect(Date.parse(healthy.last_success_at)).to.be.greaterThan(Date.parse(healthy.last_error.at));
    expect(healthy.last_error).to.include({ status: 503 });

    down = true;
    await changeStore();
    await waitForHealth(id, 'failing');
    await waitForNotices(shop.merchant.email, 'webhook_subscription_failing', 2);
    down = false;
    await waitForHealth(id, 'healthy');
    await settle();
    expect(await notices(shop.merchant.email, 'webhook_subscription_failing')).to.have.length(2);
    expect(await notices(shop.merchant.email, 'webhook_subscription_disabled')).to.have.length(0);
  });

  it("tells an app subscription's partner, not the merchant, and another merchant sees nothing of it", async () => {
    const contact = `partner-${Date.now()}@example.com`;
    const developer = await givenDeveloper(api, { contact_email: contact });
    const submitted = await givenSubmittedApp(api, { scopes: ['read_products'], webhooks: { topics: ['product.created'] } }, developer);
    const approved = await api.post(`/v1/operations/app-reviews/${submitted.app.latest_version.id}/approve`, undefined, { token: operatorToken });
    expect(approved.status).to.equal(200);
    const partner: GivenApp = {
      ...submitted,
      app: (await api.get(`/v1/app-store/developers/apps/${submitted.app.id}`, { token: developer.merchant.token })).body.data,
    };
    receiver.expectSecret('/health-app', partner.webhookSecret).on('/health-app', () => ({ status: 500 }));
    const { installationId } = await authorizeApp(api, partner, shop, { scopes: ['read_products'], webhookUrl: `${receiver.url}/health-app` });
    const other = await givenMerchantWithStore(api);

    const appView = async () => {
      const res = await api.get(`/v1/app-store/developers/apps/${partner.app.id}/webhook-subscriptions`, { token: developer.merchant.token });
      return res.body.data.find((s: any) => s.id === installationId);
    };
    // app.installed and five products: six deliveries that fail every attempt.
    for (let i = 0; i < 5; i++) {
      expect((await api.post('/v1/products', { title: `Lamp ${i}`, status: 'active', variants: [{ price: 100 }] }, shop.as)).status).to.equal(201);
    }
    const [failing] = await waitForNotices(contact, 'webhook_subscription_failing', 1);
    expect(failing!.text)
      .to.include(installationId)
      .and.to.include(`/v1/app-store/developers/apps/${partner.app.id}/webhook-deliveries?store_id=${shop.store.id}`);
    const [disabled] = await waitForNotices(contact, 'webhook_subscription_disabled', 1);
    expect(disabled!.text).to.include("the merchant's next authorization of your app");
    const v = await until('the app subscription to be disabled', async () => ((await appView())?.health === 'disabled' ? appView() : null));
    expect(v).to.include({ active: false, disabled_reason: 'failing' });
    expect(v.last_error).to.include({ status: 500 });
    await settle();
    expect(await notices(contact)).to.have.length(2);

    // The merchant of the store is not told (the app's endpoint is the partner's), and nor is another merchant.
    expect(await notices(shop.merchant.email)).to.have.length(0);
    expect(await notices(other.merchant.email)).to.have.length(0);
    expect((await api.get(`/v1/operations/webhook-subscriptions/${installationId}`, other.as)).status).to.equal(404);
    expect((await api.get('/v1/operations/webhook-subscriptions', other.as)).body.data).to.have.length(0);

    // The merchant's next authorization re-enables it: a new episode.
    receiver.on('/health-app', () => ({ status: 200 }));
    await authorizeApp(api, partner, shop, { scopes: ['read_products'], webhookUrl: `${receiver.url}/health-app` });
    expect(await appView()).to.include({ active: true, health: 'healthy', failure_streak: 0, failing_since: null });
  });
});
