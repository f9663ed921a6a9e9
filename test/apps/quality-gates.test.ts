import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { DURATION_EDGES_MS, functionAppMetrics } from '../../src/apps/function-runs/models.js';
import { givenPublishedApp, installApp, type GivenApp } from '../helpers/apps.js';
import { givenProduct } from '../helpers/catalog.js';
import { givenMerchant, givenMerchantWithStore } from '../helpers/factories.js';
import { makeTestCertificate, type TestCertificate } from '../helpers/tls.js';
import { until } from '../helpers/waiting.js';
import { useWebhooksApp } from '../helpers/webhooks.js';

const OPERATOR = 'op-quality@example.com';

/** A Checkout Function of the manifest that answers `program` for `target`. */
const fn = (handle: string, target: string, program: unknown) => ({ kind: 'checkout_function', handle, name: handle, target, config: { program } });
const NO_ADVICE = { eachKey: { operations: { preserve: [] } } };
const block = (handle: string, config: Record<string, unknown>) => ({ kind: 'theme_app_block', handle, name: handle, target: 'section', config });

/**
 * The quality gates of the app review checklist (docs/extensions.md, Quality gates): the
 * extensions worker renders every declared app block and fetches the privacy policy URL (a real
 * HTTPS page here), the functions' figures come from real checkouts, and the checklist shows
 * each gate's measured value, threshold and status, to the merchant, the app and the partner.
 */
describe('Quality gates: the app review checklist, measured by the extensions worker and checkout', () => {
  let tls: TestCertificate;
  let pages: Server;
  let pageBase = '';
  const answers = new Map<string, number>([
    ['/privacy', 200],
    ['/moved', 301],
    ['/gone', 404],
  ]);
  before(async () => {
    tls = makeTestCertificate();
    pages = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
      const status = answers.get(req.url ?? '') ?? 404;
      res.writeHead(status, status === 301 ? { location: '/privacy' } : { 'content-type': 'text/html' }).end('<h1>Privacy</h1>');
    });
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    pageBase = `https://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((resolve) => pages.close(resolve));
    tls.remove();
  });
  const { app, api, startWorker } = useWebhooksApp('quality_gates', {
    OPERATOR_EMAILS: OPERATOR,
    JOBS_POLL_INTERVAL_MS: '100',
    EXTENSIONS_QUALITY_SWEEP_INTERVAL_MS: '300',
    EXTENSIONS_QUALITY_MAX_AGE_MS: '1500',
  });
  let worker: Promise<unknown> | null = null;
  /** The extensions worker, trusting the pages' certificate: started once, by the first test that needs it. */
  const extensionsWorker = () => (worker ??= startWorker('extensions', { NODE_EXTRA_CA_CERTS: tls.certFile }));
  let operatorToken: string;
  before(async () => {
    operatorToken = (await givenMerchant(api, { email: OPERATOR })).token;
  });

  const quality = async (partner: GivenApp) => {
    const res = await api.get('/v1/app-store/partners/dashboard', { token: partner.developer.merchant.token });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data.apps[0].quality;
  };
  const gate = (checklist: any, check: string) => checklist.checks.find((c: any) => c.check === check);
  /** The app's checklist once `check` has a status other than not_enough_data (or `status`). */
  const qualityOnce = (partner: GivenApp, check: string, status?: string) =>
    until(`${check} of ${partner.app.handle}`, async () => {
      const q = await quality(partner);
      const s = gate(q, check).status;
      return (status ? s === status : s !== 'not_enough_data') ? q : null;
    });

  it('renders the declared app blocks and fetches the privacy page in the extensions worker; until then, not enough data', async () => {
    const partner = await givenPublishedApp(api, operatorToken, {
      privacy_policy_url: `${pageBase}/privacy`,
      extensions: [
        block('stars', { heading: 'Rated 4.8', body: 'From 1,200 reviews', cta_label: 'Read them', cta_href: '/pages/reviews' }),
        block('video', { heading: 'Watch', iframe_url: 'http://video.example.com/embed' }),
        block('blank', {}),
        block('half-cta', { heading: 'Hi', cta_label: 'Go' }),
      ],
    });
    const before = await quality(partner);
    expect(gate(before, 'app_blocks')).to.deep.include({ status: 'not_enough_data', applies: true });
    expect(gate(before, 'privacy_url')).to.deep.include({ status: 'not_enough_data' });
    expect(gate(before, 'performance')).to.deep.include({ status: 'pass', applies: false });
    expect(gate(before, 'reviews')).to.deep.include({ status: 'not_enough_data', measured: { reviews: 0, rating: null } });
    expect(gate(before, 'installs')).to.deep.include({ status: 'fail', measured: { net_installs: 0 }, threshold: { min_net_installs: 50 } });

    await extensionsWorker();
    const after = await qualityOnce(partner, 'privacy_url');
    expect(gate(after, 'privacy_url')).to.deep.include({ status: 'pass', details: [] });
    expect(gate(after, 'privacy_url').measured).to.include({ url: `${pageBase}/privacy`, https: true, status: 200 });
    const blocks = gate(after, 'app_blocks');
    expect(blocks).to.deep.include({ status: 'fail' });
    expect(blocks.measured).to.include({ declared: 4, rendering: 1 });
    expect(blocks.details).to.deep.equal([
      'video: iframe_url: must be an https URL; it does not render',
      'blank: the block renders nothing: give it a heading, a body, a call to action or an iframe_url',
      'half-cta: cta_label and cta_href: a call to action needs both; it does not render',
    ]);
    expect(after.status).to.equal('fail');
    const checked = await app.platform.db.collection('app_quality_checks').countDocuments({});
    expect(checked).to.be.greaterThan(0);
  });

  it('fails a privacy page that answers 404 or redirects, and the sweep checks again once a check is old', async () => {
    await extensionsWorker();
    const gone = await givenPublishedApp(api, operatorToken, { privacy_policy_url: `${pageBase}/gone` });
    const moved = await givenPublishedApp(api, operatorToken, { privacy_policy_url: `${pageBase}/moved` });
    const goneGate = gate(await qualityOnce(gone, 'privacy_url'), 'privacy_url');
    expect(goneGate).to.deep.include({ status: 'fail', details: ['The receiver returned HTTP 404'] });
    expect(goneGate.measured.status).to.equal(404);
    const movedGate = gate(await qualityOnce(moved, 'privacy_url'), 'privacy_url');
    expect(movedGate).to.deep.include({ status: 'fail' });
    expect(movedGate.measured.status).to.equal(301);
    // No app blocks: the gate applies to nothing and passes.
    expect(gate(await quality(gone), 'app_blocks')).to.deep.include({ status: 'pass', applies: false });

    // The page comes back: the sweep (checks older than 1.5 s) fetches it again.
    answers.set('/gone', 200);
    try {
      const healed = await qualityOnce(gone, 'privacy_url', 'pass');
      expect(gate(healed, 'privacy_url').measured.status).to.equal(200);
    } finally {
      answers.set('/gone', 404);
    }
  });

  it('measures Checkout Functions over real checkouts: 1,000 runs without failures, and 0.1 % failing fails', async () => {
    const good = await givenPublishedApp(api, operatorToken, {
      privacy_policy_url: `${pageBase}/privacy`,
      extensions: [fn('a', 'shipping', NO_ADVICE), fn('b', 'validation', { eachKey: { errors: { preserve: [] } } }), fn('c', 'shipping', NO_ADVICE)],
    });
    const flaky = await givenPublishedApp(api, operatorToken, {
      privacy_policy_url: `${pageBase}/privacy`,
      extensions: [fn('d', 'shipping', NO_ADVICE), fn('e', 'validation', { '*': [{ var: 'cart.currency' }, 2] }), fn('f', 'shipping', NO_ADVICE)],
    });
    const shop = await givenMerchantWithStore(api);
    await api.put('/v1/shipping', { rates: [{ code: 'standard', name: 'Standard', price: 500, country_code: 'CA' }] }, shop.as);
    for (const partner of [good, flaky]) {
      const { installationId } = await installApp(api, partner, shop, { scopes: ['read_orders'] });
      const rows = (await api.get(`/v1/app-store/installations/${installationId}/extensions`, shop.as)).body.data.functions;
      for (const row of rows)
        expect(
          (await api.patch(`/v1/app-store/installations/${installationId}/functions/${row.id}`, { state: 'enabled', version: row.version }, shop.as)).status,
        ).to.equal(200);
    }
    const product = await givenProduct(api, shop.as);
    const cart = (await api.post(`/v1/storefront/${shop.store.subdomain}/cart`, { lines: [{ variant_id: product.variants[0].id, quantity: 1 }] })).body.data
      .token;
    const before = gate(await quality(good), 'performance');
    expect(before).to.deep.include({ status: 'not_enough_data', applies: true });

    // 334 checkouts' options: each runs the three functions of each app once.
    for (let i = 0; i < 334; i++) {
      const res = await api.get(`/v1/storefront/${shop.store.subdomain}/cart/checkout-options?country_code=CA`, { headers: { 'x-cart-token': cart } });
      expect(res.status).to.equal(200);
    }
    const passed = gate(await quality(good), 'performance');
    expect(passed.measured).to.include({ runs: 1002, failure_rate: 0 });
    // Read off the runs' histogram. Whether it is under 2 ms is the machine's say (a busy one pauses
    // threads mid-run): the test below holds the threshold to stored figures, bench:functions times runs.
    expect(DURATION_EDGES_MS).to.include(passed.measured.p95_ms);
    const overP95 = passed.measured.p95_ms > 2 ? [`p95 duration ${passed.measured.p95_ms} ms is over 2 ms`] : [];
    expect(passed).to.deep.include({ status: overP95.length ? 'fail' : 'pass', details: overP95 });
    const failed = gate(await quality(flaky), 'performance');
    expect(failed.measured).to.include({ runs: 1002 });
    expect(failed.measured.failure_rate).to.be.closeTo(334 / 1002, 1e-9);
    expect(failed.status).to.equal('fail');
    expect(failed.details[0]).to.match(/^failure rate 33\.33 % is over 0\.1 %/);

    // The same checklist in the registry listing, for the merchant and for the app itself.
    const { installationId, token } = await installApp(api, good, shop, { scopes: ['read_orders'] });
    const merchantView = await api.get(`/v1/app-store/installations/${installationId}/extensions`, shop.as);
    expect(gate(merchantView.body.data.review_checklist, 'performance')).to.deep.include({ status: passed.status });
    const appView = await api.get(`/v1/app-store/installations/${installationId}/extensions`, { token });
    expect(appView.body.data.review_checklist).to.deep.equal(merchantView.body.data.review_checklist);
  });

  it('passes a p95 of 2 ms and fails one past it, read off the day’s stored figures', async () => {
    const partner = await givenPublishedApp(api, operatorToken, { privacy_policy_url: `${pageBase}/privacy`, extensions: [fn('p', 'shipping', NO_ADVICE)] });
    const day = new Date().toISOString().slice(0, 10);
    const figures = functionAppMetrics(app.platform.db);
    // 1,000 runs, 950 of them within 2 ms: the 95th percentile is in the 2 ms bucket.
    await figures.insertOne({
      _id: `${partner.app.id}:${day}`,
      app_id: new ObjectId(partner.app.id),
      day,
      count: 1000,
      failed_securely: 0,
      duration_ms_total: 1500,
      duration_buckets: { b5: 950, b6: 50 },
      failures: {},
    });
    const within = gate(await quality(partner), 'performance');
    expect(within.measured).to.include({ runs: 1000, p95_ms: 2, failure_rate: 0 });
    expect(within).to.deep.include({ status: 'pass', details: [] });
    // One more run past 2 ms: 951 runs make the 95th percentile, and the 951st is in the 5 ms bucket.
    await figures.updateOne({ _id: `${partner.app.id}:${day}` }, { $inc: { count: 1, duration_ms_total: 4, 'duration_buckets.b6': 1 } });
    const over = gate(await quality(partner), 'performance');
    expect(over.measured).to.include({ runs: 1001, p95_ms: 5 });
    expect(over).to.deep.include({ status: 'fail', details: ['p95 duration 5 ms is over 2 ms'] });
  });
});
