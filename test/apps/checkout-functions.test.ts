import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { useTestApp } from '../helpers/app.js';
import { givenCoupon } from '../helpers/coupons.js';
import { givenPublishedApp, installApp, type GivenApp } from '../helpers/apps.js';
import { givenProduct } from '../helpers/catalog.js';
import { givenMerchant, givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { DURATION_EDGES_MS } from '../../src/apps/function-runs/models.js';

const OPERATOR = 'op-functions@example.com';

/** A Checkout Function extension of the manifest. */
const fn = (handle: string, target: string, program: unknown, settings?: Record<string, unknown>) => ({
  kind: 'checkout_function',
  handle,
  name: handle,
  target,
  config: { program, ...(settings ? { settings } : {}) },
});

/** The advice of a well-behaved app, one function per target (docs/extensions.md, Each target's input and output). */
const ADVISOR = [
  fn('no-fragile-codes', 'coupon', {
    if: [
      { some: [{ var: 'cart.lines' }, { in: ['fragile', { var: 'tags' }] }] },
      { eachKey: { decision: 'refuse', message: { cat: ['Code ', { var: 'cart.coupon_code' }, ' does not apply to fragile items'] } } },
      null,
    ],
  }),
  fn(
    'ship-rules',
    'shipping',
    {
      eachKey: {
        operations: {
          merge: [
            {
              if: [
                { '!=': [{ var: 'cart.shipping_address.country' }, { var: 'settings.home_country' }] },
                { preserve: [{ hide: 'express' }] },
                { preserve: [] },
              ],
            },
            {
              if: [
                { '>=': [{ var: 'cart.subtotal' }, { var: 'settings.tracked_over' }] },
                { preserve: [{ rename: { code: 'standard', name: 'Standard (tracked)' } }] },
                { preserve: [] },
              ],
            },
            { preserve: [{ move: { code: 'pickup', index: 0 } }] },
          ],
        },
      },
    },
    { home_country: 'CA', tracked_over: 5000 },
  ),
  fn(
    'pay-rules',
    'payment_method',
    {
      eachKey: {
        operations: { if: [{ '>': [{ var: 'cart.subtotal' }, { var: 'settings.sandbox_up_to' }] }, { preserve: [{ hide: 'sandbox' }] }, { preserve: [] }] },
      },
    },
    { sandbox_up_to: 20_000 },
  ),
  fn(
    'max-qty',
    'validation',
    {
      eachKey: {
        errors: {
          map: [
            { filter: [{ var: 'cart.lines' }, { '>': [{ var: 'quantity' }, { var: '../../settings.max_quantity' }] }] },
            { eachKey: { message: { cat: ['At most ', { var: '../../settings.max_quantity' }, ' of ', { var: 'sku' }] }, field: 'lines' } },
          ],
        },
      },
    },
    { max_quantity: 3 },
  ),
];

/** Functions that fail in every way a run can: each must be dropped, the checkout going on as if it had not run. */
const HOSTILE = [
  // Combinatorial blow-up: a map inside a map inside a map over 30 items is 27,000 operations; it stops on a limit.
  fn('blow-up', 'shipping', {
    eachKey: {
      operations: {
        map: [
          { preserve: Array.from({ length: 30 }, (_, i) => i) },
          {
            map: [
              { preserve: Array.from({ length: 30 }, (_, i) => i) },
              { map: [{ preserve: Array.from({ length: 30 }, (_, i) => i) }, { preserve: { hide: 'standard' } }] },
            ],
          },
        ],
      },
    },
  }),
  // Arithmetic on a string throws.
  fn('throws', 'payment_method', { eachKey: { operations: { '*': [{ var: 'cart.currency' }, 2] } } }),
  fn('throws-too', 'payment_method', { '*': [{ var: 'cart.currency' }, 2] }),
  // Answers a price: refused as a whole.
  fn('sets-a-price', 'shipping', { eachKey: { operations: { preserve: [{ hide: 'express' }] }, price: 0 } }),
  fn('sets-a-total', 'validation', { eachKey: { errors: { preserve: [] }, total: 1 } }),
  // A coupon answer of the wrong shape.
  fn('bad-coupon', 'coupon', { eachKey: { decision: 'maybe' } }),
];

/** The audit's deep list and one `cat` (fixtures/functions/deep-list.json, issue 36), 22 levels. */
const DEEP_LIST = JSON.parse(readFileSync(new URL('../../../fixtures/functions/deep-list.json', import.meta.url), 'utf8'));

/**
 * Checkout Functions at the storefront checkout (docs/extensions.md, At checkout): the store's
 * enabled functions advise on coupons, shipping options, payment methods and validation; they
 * never set an amount; a failing one is dropped and counted; every run is in the run log.
 */
describe('Checkout Functions at checkout (advice, failing securely, metrics and the run log)', () => {
  const { api } = useTestApp('checkout_functions', { OPERATOR_EMAILS: OPERATOR });
  let operatorToken: string;
  before(async () => {
    operatorToken = (await givenMerchant(api, { email: OPERATOR })).token;
  });

  /** A store that ships in CA and US (standard, express, pickup) and takes the sandbox and manual payment. */
  async function givenShippingShop(): Promise<GivenMerchantWithStore> {
    const shop = await givenMerchantWithStore(api);
    const rates = await api.put(
      '/v1/shipping',
      {
        rates: [
          { code: 'standard', name: 'Standard', price: 900, country_code: 'CA' },
          { code: 'standard', name: 'Standard', price: 1500, country_code: 'US' },
          { code: 'express', name: 'Express', price: 2500, country_code: 'CA' },
          { code: 'express', name: 'Express', price: 3500, country_code: 'US' },
          { code: 'pickup', name: 'Pickup in store', price: 100, country_code: 'CA' },
        ],
      },
      shop.as,
    );
    expect(rates.status, JSON.stringify(rates.body)).to.equal(200);
    expect(
      (await api.put('/v1/payments/providers/sandbox', { enabled: true, credentials: { key_secret: 'sandbox_secret_0123456789abcdef' } }, shop.as)).status,
    ).to.equal(200);
    expect((await api.put('/v1/payments/providers/manual', { enabled: true }, shop.as)).status).to.equal(200);
    return shop;
  }
  /** The merchant enables each of the installation's functions (they start disabled): the rows as they become. */
  async function enableFunctions(shop: GivenMerchantWithStore, installationId: string): Promise<any[]> {
    const listed = await api.get(`/v1/app-store/installations/${installationId}/extensions`, shop.as);
    expect(listed.status, JSON.stringify(listed.body)).to.equal(200);
    const functions = [];
    for (const row of listed.body.data.functions) {
      expect(row.state).to.equal('disabled');
      const on = await api.patch(`/v1/app-store/installations/${installationId}/functions/${row.id}`, { state: 'enabled', version: row.version }, shop.as);
      expect(on.status, JSON.stringify(on.body)).to.equal(200);
      functions.push(on.body.data);
    }
    return functions;
  }
  /** The app installed in the store, each of its functions enabled. */
  async function installFunctions(shop: GivenMerchantWithStore, partner: GivenApp): Promise<{ installationId: string; token: string; functions: any[] }> {
    const installed = await installApp(api, partner, shop, { scopes: ['read_orders'] });
    return { ...installed, functions: await enableFunctions(shop, installed.installationId) };
  }
  async function cartOf(
    shop: GivenMerchantWithStore,
    lines: { price: number; quantity: number; sku: string; tags?: string[] }[],
    coupon_code?: string,
  ): Promise<string> {
    const variants = [];
    for (const l of lines) {
      const product = await givenProduct(api, shop.as, { tags: l.tags ?? [], variants: [{ price: l.price, sku: l.sku, inventory_tracked: false }] });
      variants.push({ variant_id: product.variants[0].id, quantity: l.quantity });
    }
    const res = await api.post(`/v1/storefront/${shop.store.subdomain}/cart`, { lines: variants, ...(coupon_code ? { coupon_code } : {}) });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.data.token as string;
  }
  const offer = async (shop: GivenMerchantWithStore, cart: string, country: string) => {
    const res = await api.get(`/v1/storefront/${shop.store.subdomain}/cart/checkout-options?country_code=${country}`, { headers: { 'x-cart-token': cart } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data;
  };
  const checkout = (shop: GivenMerchantWithStore, cart: string, country: string, option: string) =>
    api.post(
      `/v1/storefront/${shop.store.subdomain}/orders`,
      { email: 'shopper@example.com', shipping_address: { address1: '1 Main St', city: 'Town', country_code: country }, shipping_option: option },
      { headers: { 'x-cart-token': cart, 'idempotency-key': randomBytes(8).toString('hex') } },
    );
  const runLog = (shop: GivenMerchantWithStore, installationId: string, query = '') =>
    api.get(`/v1/app-store/installations/${installationId}/functions/runs${query}`, shop.as);

  it('offers everything while the functions are disabled; enabled, each target changes what checkout offers', async () => {
    const shop = await givenShippingShop();
    const partner = await givenPublishedApp(api, operatorToken, { extensions: ADVISOR });
    const installed = await installApp(api, partner, shop, { scopes: ['read_orders'] });
    const cart = await cartOf(shop, [{ price: 3000, quantity: 2, sku: 'MUG' }]);
    const before = await offer(shop, cart, 'US');
    expect(before.shipping_options.map((o: any) => o.code)).to.deep.equal(['standard', 'express']);
    expect(before.payment_methods.map((m: any) => m.provider)).to.deep.equal(['manual', 'sandbox']);
    expect((await runLog(shop, installed.installationId)).body.data.runs).to.deep.equal([]);

    await enableFunctions(shop, installed.installationId);
    // Abroad: express hidden; 6000 ≥ 5000: standard renamed, at its price.
    const us = await offer(shop, cart, 'US');
    expect(us.shipping_options).to.deep.equal([{ code: 'standard', name: 'Standard (tracked)', price: 1500 }]);
    expect(us.errors).to.deep.equal([]);
    // At home: pickup first, express kept.
    const ca = await offer(shop, cart, 'CA');
    expect(ca.shipping_options).to.deep.equal([
      { code: 'pickup', name: 'Pickup in store', price: 100 },
      { code: 'standard', name: 'Standard (tracked)', price: 900 },
      { code: 'express', name: 'Express', price: 2500 },
    ]);
    // A hidden option cannot be chosen; a renamed one is charged at its rate under its new name.
    const hidden = await checkout(shop, cart, 'US', 'express');
    expect(hidden.status).to.equal(409);
    expect(hidden.body.error.code).to.equal('shipping_option_unavailable');
    const made = await checkout(shop, cart, 'US', 'standard');
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    expect(made.body.data).to.include({ subtotal: 6000, shipping_total: 1500, total: 7500 });
    expect(made.body.data.shipping_line).to.include({ title: 'Standard (tracked)', code: 'standard', price: 1500 });
    expect(made.body.data.payment_methods).to.deep.equal(['manual', 'sandbox']);

    // Payment methods: over 20000 the sandbox is hidden, and an order of that checkout cannot be paid with it.
    const big = await cartOf(shop, [{ price: 11_000, quantity: 2, sku: 'LAMP' }]);
    expect((await offer(shop, big, 'CA')).payment_methods).to.deep.equal([{ provider: 'manual', name: 'Manual payment' }]);
    const bigOrder = await checkout(shop, big, 'CA', 'standard');
    expect(bigOrder.status, JSON.stringify(bigOrder.body)).to.equal(201);
    expect(bigOrder.body.data.payment_methods).to.deep.equal(['manual']);
    const pay = await api.post(`/v1/storefront/${shop.store.subdomain}/payments/sandbox/order`, {
      order_id: bigOrder.body.data.id,
      payment_secret: bigOrder.body.data.payment_secret,
    });
    expect(pay.status).to.equal(409);
    expect(pay.body.error.code).to.equal('payment_method_unavailable');
    const paySmall = await api.post(`/v1/storefront/${shop.store.subdomain}/payments/sandbox/order`, {
      order_id: made.body.data.id,
      payment_secret: made.body.data.payment_secret,
    });
    expect(paySmall.status, JSON.stringify(paySmall.body)).to.equal(201);
    expect(paySmall.body.data.amount).to.equal(7500);
  });

  it('refuses a coupon a function refuses, and shows validation errors, blocking checkout only where the merchant said so', async () => {
    const shop = await givenShippingShop();
    await givenCoupon(api, shop.as, { code: 'SPRING', type: 'percentage', value: 10 });
    const partner = await givenPublishedApp(api, operatorToken, { extensions: ADVISOR });
    const { installationId, functions } = await installFunctions(shop, partner);

    const fragile = await cartOf(shop, [{ price: 2000, quantity: 1, sku: 'VASE', tags: ['fragile'] }], 'SPRING');
    const advised = await offer(shop, fragile, 'CA');
    expect(advised.coupon).to.deep.equal({ decision: 'refuse', message: 'Code SPRING does not apply to fragile items' });
    const refused = await checkout(shop, fragile, 'CA', 'standard');
    expect(refused.status).to.equal(409);
    expect(refused.body.error).to.include({ code: 'coupon_refused', message: 'Code SPRING does not apply to fragile items' });
    const plain = await cartOf(shop, [{ price: 2000, quantity: 1, sku: 'MUG' }], 'SPRING');
    expect((await offer(shop, plain, 'CA')).coupon).to.deep.equal({ decision: 'allow' });
    const discounted = await checkout(shop, plain, 'CA', 'standard');
    expect(discounted.status, JSON.stringify(discounted.body)).to.equal(201);
    expect(discounted.body.data).to.include({ subtotal: 2000, discount_total: 200, total: 2700 });

    // Four of a line where the function allows three: shown, not blocking, until the merchant says it blocks.
    const many = await cartOf(shop, [{ price: 500, quantity: 4, sku: 'CUP' }]);
    expect((await offer(shop, many, 'CA')).errors).to.deep.equal([{ message: 'At most 3 of CUP', field: 'lines', blocking: false }]);
    const validation = functions.find((f) => f.handle === 'max-qty');
    const blocking = await api.patch(
      `/v1/app-store/installations/${installationId}/functions/${validation.id}`,
      { blocking: true, version: validation.version },
      shop.as,
    );
    expect(blocking.status, JSON.stringify(blocking.body)).to.equal(200);
    expect((await offer(shop, many, 'CA')).errors).to.deep.equal([{ message: 'At most 3 of CUP', field: 'lines', blocking: true }]);
    const stopped = await checkout(shop, many, 'CA', 'standard');
    expect(stopped.status).to.equal(409);
    expect(stopped.body.error.code).to.equal('checkout_blocked');
    expect(stopped.body.error.details).to.deep.equal(['lines: At most 3 of CUP']);
    // The merchant raises the limit (a setting the manifest declares): the checkout goes through.
    const raised = await api.patch(
      `/v1/app-store/installations/${installationId}/functions/${validation.id}`,
      { settings: { max_quantity: 10 }, version: blocking.body.data.version },
      shop.as,
    );
    expect(raised.status, JSON.stringify(raised.body)).to.equal(200);
    const through = await checkout(shop, many, 'CA', 'standard');
    expect(through.status, JSON.stringify(through.body)).to.equal(201);
  });

  it('drops every function that loops, throws, or answers a price, counts it failed_securely, and leaves the order’s total as it was', async () => {
    const shop = await givenShippingShop();
    const lines = [{ price: 1234, quantity: 3, sku: 'BOWL' }];
    const baselineCart = await cartOf(shop, lines);
    const baseline = await offer(shop, baselineCart, 'CA');
    const baselineOrder = await checkout(shop, baselineCart, 'CA', 'express');
    expect(baselineOrder.status, JSON.stringify(baselineOrder.body)).to.equal(201);

    const partner = await givenPublishedApp(api, operatorToken, { extensions: HOSTILE });
    const { installationId, token } = await installFunctions(shop, partner);
    const cart = await cartOf(shop, lines, 'NOPE');
    await api.patch(`/v1/storefront/${shop.store.subdomain}/cart`, { coupon_code: null, version: 1 }, { headers: { 'x-cart-token': cart } });
    const advised = await offer(shop, cart, 'CA');
    expect(advised.shipping_options).to.deep.equal(baseline.shipping_options);
    expect(advised.payment_methods).to.deep.equal(baseline.payment_methods);
    expect(advised.errors).to.deep.equal([]);
    const order = await checkout(shop, cart, 'CA', 'express');
    expect(order.status, JSON.stringify(order.body)).to.equal(201);
    for (const field of ['subtotal', 'shipping_total', 'tax_total', 'discount_total', 'total'])
      expect(order.body.data[field], field).to.equal(baselineOrder.body.data[field]);

    const log = await runLog(shop, installationId);
    expect(log.status, JSON.stringify(log.body)).to.equal(200);
    const runs = log.body.data.runs;
    // Two checkouts (the options, then the order) ran the five functions that had something to advise on (no coupon code: not the coupon one).
    expect(runs).to.have.length(10);
    expect(runs.every((r: any) => r.outcome === 'failed_securely')).to.equal(true);
    const codes = new Map(runs.map((r: any) => [r.handle, r.error_code]));
    // Stopped by a limit: its operations, or its 5 ms when the machine is busy.
    expect(['operation_limit', 'time_limit']).to.include(codes.get('blow-up'));
    codes.delete('blow-up');
    expect(Object.fromEntries(codes)).to.deep.equal({
      throws: 'error',
      'throws-too': 'error',
      'sets-a-price': 'invalid_output',
      'sets-a-total': 'invalid_output',
    });
    expect(runs[0]).to.include.keys('error_message', 'cart_id', 'customer_id');
    const byHandle = new Map(log.body.data.functions.map((f: any) => [f.handle, f.metrics]));
    const blowUp: any = byHandle.get('blow-up');
    expect(blowUp['app_function.execution.count']).to.equal(2);
    expect(blowUp['app_function.execution.failed_securely']).to.equal(2);
    expect(Object.values(blowUp.failures).reduce((a: number, b) => a + (b as number), 0)).to.equal(2);
    expect(blowUp['app_function.execution.duration_ms'].p95).to.be.a('number');
    expect((byHandle.get('bad-coupon') as any)['app_function.execution.count']).to.equal(0);

    // The partner, with the app's token: the same runs, without the shopper's cart, customer or the error's text.
    const partnerView = await api.get(`/v1/app-store/installations/${installationId}/functions/runs?limit=3`, { token });
    expect(partnerView.status, JSON.stringify(partnerView.body)).to.equal(200);
    expect(partnerView.body.data.runs).to.have.length(3);
    for (const r of partnerView.body.data.runs) expect(r).to.not.have.any.keys('cart_id', 'customer_id', 'error_message');
  });

  it('stops the deep-list function by its operations before it walks the list, and answers another store’s checkout beside its runs', async () => {
    const hostile = await givenShippingShop();
    const { installationId } = await installFunctions(hostile, await givenPublishedApp(api, operatorToken, { extensions: [DEEP_LIST] }));
    const quiet = await givenShippingShop();
    await installFunctions(quiet, await givenPublishedApp(api, operatorToken, { extensions: ADVISOR }));
    const [hostileCart, quietCart] = [
      await cartOf(hostile, [{ price: 500, quantity: 1, sku: 'CUP' }]),
      await cartOf(quiet, [{ price: 3000, quantity: 2, sku: 'MUG' }]),
    ];

    // Three of the hostile store's checkouts and one of the quiet store's, at once.
    const [quietOffer, ...hostileOffers] = await Promise.all([offer(quiet, quietCart, 'US'), ...[1, 2, 3].map(() => offer(hostile, hostileCart, 'CA'))]);
    expect(quietOffer.shipping_options).to.deep.equal([{ code: 'standard', name: 'Standard (tracked)', price: 1500 }]);
    for (const o of hostileOffers) expect(o.errors).to.deep.equal([]);

    const runs = (await runLog(hostile, installationId)).body.data.runs;
    expect(runs).to.have.length(3);
    for (const r of runs) {
      expect(r).to.include({ outcome: 'failed_securely', operations: null });
      // Stopped in cat before it made any text, by its operations; or by its 5 ms, wherever a busy machine paused it.
      const stops = {
        operation_limit: /^the program used more than 10000 operations, the last of them in cat$/,
        time_limit: /^the program ran out of time after \d+ operations, in \S+$/,
      };
      expect(Object.keys(stops)).to.include(r.error_code);
      expect(r.error_message).to.match(stops[r.error_code as keyof typeof stops]);
    }
  });

  it('shows the app its runs’ operations, sizes and durations rounded up to a few steps, which a program cannot spell its input in; the merchant sees them exact', async () => {
    const shop = await givenShippingShop();
    const { installationId, token } = await installFunctions(shop, await givenPublishedApp(api, operatorToken, { extensions: ADVISOR }));
    for (const quantity of [1, 4, 7]) await offer(shop, await cartOf(shop, [{ price: 700, quantity, sku: `SKU-${quantity}` }]), 'CA');
    const merchant = (await runLog(shop, installationId)).body.data;
    const app = (await api.get(`/v1/app-store/installations/${installationId}/functions/runs`, { token })).body.data;
    expect(app.runs.map((r: any) => r.id)).to.deep.equal(merchant.runs.map((r: any) => r.id));
    expect(merchant.runs).to.have.length(9);
    /** The smallest of `edges` at least `exact` (the last edge past them all). */
    const step = (exact: number, edges: readonly number[]) => edges.find((e) => exact <= e) ?? edges.at(-1)!;
    const powers = (first: number, base: number) => Array.from({ length: 12 }, (_, i) => first * base ** i);
    for (const [i, exact] of merchant.runs.entries()) {
      const shown = app.runs[i];
      expect(shown.operations, 'operations').to.equal(step(exact.operations, powers(10, 10)));
      expect(shown.input_bytes, 'input_bytes').to.equal(step(exact.input_bytes, powers(256, 4)));
      expect(shown.output_bytes, 'output_bytes').to.equal(step(exact.output_bytes, powers(256, 4)));
      expect(shown.duration_ms, 'duration_ms').to.equal(step(exact.duration_ms, DURATION_EDGES_MS));
    }
    // Somewhere a program could spell a bit, the merchant's figure is not a step: the app's is.
    expect(merchant.runs.some((r: any) => !powers(256, 4).includes(r.input_bytes))).to.equal(true);
    for (const [i, figures] of merchant.functions.entries()) {
      const exact = figures.metrics['app_function.execution.duration_ms'];
      const shown = app.functions[i].metrics['app_function.execution.duration_ms'];
      expect(shown).to.deep.equal({ total: Math.ceil(exact.total), mean: exact.mean === null ? null : step(exact.mean, DURATION_EDGES_MS), p95: exact.p95 });
    }
  });

  it('keeps totals exact over 50 concurrent checkouts with functions, each run counted', async () => {
    const shop = await givenShippingShop();
    const partner = await givenPublishedApp(api, operatorToken, { extensions: ADVISOR });
    const { installationId } = await installFunctions(shop, partner);
    const carts = await Promise.all(Array.from({ length: 50 }, () => cartOf(shop, [{ price: 2999, quantity: 2, sku: 'JAR' }])));
    const orders = await Promise.all(carts.map((cart) => checkout(shop, cart, 'CA', 'standard')));
    for (const o of orders) {
      expect(o.status, JSON.stringify(o.body)).to.equal(201);
      expect(o.body.data).to.include({ subtotal: 5998, shipping_total: 900, total: 6898 });
      expect(o.body.data.shipping_line.title).to.equal('Standard (tracked)');
    }
    const log = (await runLog(shop, installationId)).body.data;
    const count = (handle: string) => log.functions.find((f: any) => f.handle === handle).metrics['app_function.execution.count'];
    // Shipping, payment and validation ran at each checkout; the coupon function only with a code.
    expect([count('ship-rules'), count('pay-rules'), count('max-qty'), count('no-fragile-codes')]).to.deep.equal([50, 50, 50, 0]);
    expect(log.functions.map((f: any) => [f.handle, f.metrics.failures])).to.deep.equal([
      ['no-fragile-codes', {}],
      ['ship-rules', {}],
      ['pay-rules', {}],
      ['max-qty', {}],
    ]);
  });

  it('stops an uninstalled app’s functions at once, before any worker ran', async () => {
    const shop = await givenShippingShop();
    const partner = await givenPublishedApp(api, operatorToken, { extensions: ADVISOR });
    const { installationId } = await installFunctions(shop, partner);
    const cart = await cartOf(shop, [{ price: 3000, quantity: 2, sku: 'MUG' }]);
    expect((await offer(shop, cart, 'US')).shipping_options.map((o: any) => o.code)).to.deep.equal(['standard']);
    const gone = await api.delete(`/v1/app-store/installations/${installationId}`, shop.as);
    expect(gone.status, JSON.stringify(gone.body)).to.be.oneOf([200, 204]);
    const after = await offer(shop, cart, 'US');
    expect(after.shipping_options).to.deep.equal([
      { code: 'standard', name: 'Standard', price: 1500 },
      { code: 'express', name: 'Express', price: 3500 },
    ]);
    const made = await checkout(shop, cart, 'US', 'express');
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
  });

  it('gives another merchant, another app, a customer and an uninstalled app nothing of the run log and no change of a function', async () => {
    const shop = await givenShippingShop();
    const partner = await givenPublishedApp(api, operatorToken, { extensions: ADVISOR });
    const { installationId, token, functions } = await installFunctions(shop, partner);
    const row = functions[0];
    const other = await givenMerchantWithStore(api);
    const otherPartner = await givenPublishedApp(api, operatorToken, { extensions: ADVISOR });
    const otherApp = await installApp(api, otherPartner, other, { scopes: ['read_orders'] });
    const path = `/v1/app-store/installations/${installationId}/functions`;

    expect((await api.get(`${path}/runs`, other.as)).status).to.equal(404);
    expect((await api.get(`${path}/runs`, { token: other.merchant.token, storeId: shop.store.id })).status).to.equal(403);
    expect((await api.get(`${path}/runs`, { token: otherApp.token })).status).to.equal(404);
    expect((await api.get(`${path}/runs`)).status).to.equal(401);
    expect((await api.get(`${path}/runs?registration_id=nope`, shop.as)).status).to.equal(400);
    expect((await api.get(`${path}/runs?limit=1000`, shop.as)).status).to.equal(400);
    const shopper = { subdomain: shop.store.subdomain, email: 'shopper-runs@example.com', password: 'correct horse battery' };
    expect((await api.post('/v1/storefront/customer/signup', shopper)).status).to.equal(202);
    const customerToken = (await api.post('/v1/storefront/customer/login', shopper)).body.data.token as string;
    expect(customerToken).to.be.a('string');
    expect((await api.get(`${path}/runs`, { token: customerToken, storeId: shop.store.id })).status).to.equal(401);

    // Changes: never an app, never another store's merchant.
    expect((await api.patch(`${path}/${row.id}`, { state: 'disabled', version: row.version }, { token })).status).to.equal(401);
    expect((await api.patch(`${path}/${row.id}`, { state: 'disabled', version: row.version }, other.as)).status).to.equal(404);
    expect((await api.patch(`${path}/${row.id}`, { settings: { colour: 'red' }, version: row.version }, shop.as)).status).to.equal(400);
    const listed = (await api.get(`/v1/app-store/installations/${installationId}/extensions`, shop.as)).body.data.functions;
    expect(listed.find((f: any) => f.id === row.id)).to.include({ state: 'enabled', version: row.version });

    // Uninstalled: the app's own token reads nothing any more.
    expect((await api.delete(`/v1/app-store/installations/${installationId}`, shop.as)).status).to.be.oneOf([200, 204]);
    expect((await api.get(`${path}/runs`, { token })).status).to.be.oneOf([401, 404]);
  });
});
