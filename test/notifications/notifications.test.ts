import { expect } from 'chai';
import { readOutbox } from '../../src/messages/index.js';
import { fanOutEvents } from '../../src/webhooks/deliveries/fan-out.js';
import { useTestApp } from '../helpers/app.js';
import { givenLocation } from '../helpers/catalog.js';
import { givenMerchantWithStore, unique, type GivenMerchantWithStore } from '../helpers/factories.js';
import { givenOrder } from '../helpers/orders.js';
import { startWorker, stopAll, type RunningProcess } from '../helpers/processes.js';
import { until } from '../helpers/waiting.js';

const BASE = '/v1/notifications';

describe('Notifications (/v1/notifications and the order emails)', () => {
  const { app, api } = useTestApp('notifications');
  const running: RunningProcess[] = [];
  let owner: GivenMerchantWithStore;
  let location: string;

  before(async () => {
    owner = await givenMerchantWithStore(api);
    location = await givenLocation(api, owner.as);
    await startWorker(app, 'webhooks', running);
  });
  after(() => stopAll(running));

  const outboxOf = (to: string) => readOutbox(app.platform, to);
  const kindsOf = async (to: string) => (await outboxOf(to)).map((m) => m.kind).sort();
  /** Fan the order's events out again, as a retried job or the sweeper would (the event marked not fanned out first). */
  async function fanOutAgain(orderId: string): Promise<void> {
    const events = await app.platform.db.collection('events').find({ 'payload.order.id': orderId }).toArray();
    await app.platform.db.collection('events').updateMany({ _id: { $in: events.map((e) => e._id) } }, { $set: { fanned_out_at: null } });
    await fanOutEvents(
      app.platform,
      events.map((e) => e._id.toHexString()),
      'test-again',
    );
  }

  describe('GET, PUT, DELETE /v1/notifications/:kind', () => {
    it('lists every notification with its default templates', async () => {
      const res = await api.get(BASE, owner.as);
      expect(res.status).to.equal(200);
      const kinds = res.body.data.map((n: { kind: string }) => n.kind);
      expect(kinds).to.include.members([
        'order_confirmation',
        'shipping_confirmation',
        'order_refund',
        'order_cancelled',
        'merchant_new_order',
        'password_reset',
      ]);
      expect(res.body.data.every((n: { customized: boolean }) => !n.customized)).to.equal(true);
    });

    it('refuses invalid Liquid with its part and line, and changes nothing', async () => {
      const res = await api.put(`${BASE}/order_confirmation`, { subject: 'Hi', text: 'ok', html: '<p>\n\n{% if order %}never closed</p>' }, owner.as);
      expect(res.status).to.equal(400);
      expect(JSON.stringify(res.body))
        .to.match(/html/)
        .and.match(/line 3/);
      expect((await api.get(`${BASE}/order_confirmation`, owner.as)).body.data.customized).to.equal(false);
    });

    it('saves an edited template, previews it escaped, and resets it to the default', async () => {
      const put = await api.put(
        `${BASE}/order_refund`,
        {
          subject: 'Refunded {{ order.name }}',
          text: 'Money back: {{ refund.amount | money }}',
          html: '<p>Back: {{ refund.amount | money }} {{ "<script>x</script>" }}</p>',
        },
        owner.as,
      );
      expect(put.status, JSON.stringify(put.body)).to.equal(200);
      expect(put.body.data.customized).to.equal(true);
      const preview = await api.post(`${BASE}/order_refund/preview`, { order: 'sample' }, owner.as);
      expect(preview.status).to.equal(200);
      expect(preview.body.data.subject).to.equal('Refunded #1001');
      expect(preview.body.data.text).to.equal('Money back: $18.00');
      expect(preview.body.data.html).to.include('&lt;script&gt;x&lt;/script&gt;').and.not.include('<script>x');
      const reset = await api.delete(`${BASE}/order_refund`, owner.as);
      expect(reset.status).to.equal(200);
      expect(reset.body.data.customized).to.equal(false);
      expect(reset.body.data.subject).to.equal('Refund for order {{ order.name }}');
    });

    it('stops a template that would run without end, and one that would read past its objects', async () => {
      const loop = '{% for a in (1..100000) %}{% for b in (1..100000) %}{{ a }}{% endfor %}{% endfor %}';
      const res = await api.post(`${BASE}/order_confirmation/preview`, { order: 'sample', template: { subject: 's', text: loop, html: 'h' } }, owner.as);
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('invalid_template');
      const prying = await api.post(
        `${BASE}/order_confirmation/preview`,
        { order: 'sample', template: { subject: 's', text: '[{{ order.constructor }}{{ shop.__proto__ }}{{ process }}{{ stores }}]', html: 'h' } },
        owner.as,
      );
      expect(prying.status).to.equal(200);
      expect(prying.body.data.text).to.equal('[]');
    });

    it('gives another merchant nothing, and an unknown kind is a 404', async () => {
      const other = await givenMerchantWithStore(api);
      await api.put(`${BASE}/order_cancelled`, { subject: 'Mine', text: 'mine', html: 'mine' }, owner.as);
      expect((await api.get(`${BASE}/order_cancelled`, other.as)).body.data.customized).to.equal(false);
      expect((await api.get(`${BASE}/order_cancelled`, { ...other.as, storeId: owner.store.id })).status).to.be.oneOf([403, 404]);
      expect((await api.put(`${BASE}/order_cancelled`, { subject: 'x', text: 'x', html: 'x' }, { ...other.as, storeId: owner.store.id })).status).to.be.oneOf([
        403, 404,
      ]);
      expect((await api.get(`${BASE}/nope`, owner.as)).status).to.equal(404);
      await api.delete(`${BASE}/order_cancelled`, owner.as);
    });
  });

  describe('the order emails, sent by the webhooks worker', () => {
    it('confirms an order once even when its events are fanned out twice, then tells its shipment, refund and cancellation', async () => {
      const email = `shopper-${unique()}@example.com`;
      const order = await givenOrder(api, owner.as, { email, financial_status: 'paid', line_items: [{ title: 'Candle', price: 1800, quantity: 2 }] });
      await until('the confirmation', async () => (await outboxOf(email)).length > 0);
      await fanOutAgain(order.id);
      const [confirmation, ...more] = await outboxOf(email);
      expect(more).to.have.length(0);
      expect(confirmation!.kind).to.equal('order_confirmation');
      expect(confirmation!.subject).to.equal(`Order #${order.number} confirmed`);
      expect(confirmation!.text).to.include('2 × Candle').and.include('$36.00').and.include(`/checkout/orders/${order.id}`);
      expect(confirmation!.html).to.include('max-width:600px').and.include('Candle').and.include(`/checkout/orders/${order.id}`);

      const fulfil = await api.post(
        `/v1/orders/${order.id}/fulfill`,
        {
          location_id: location,
          line_items: [{ line_item_id: order.line_items[0].id, quantity: 2 }],
          tracking_company: 'UPS',
          tracking_number: '1Z999',
          tracking_url: 'https://ups.example/1Z999',
        },
        owner.as,
      );
      expect(fulfil.status, JSON.stringify(fulfil.body)).to.equal(200);
      await until('the shipping confirmation', async () => (await kindsOf(email)).includes('shipping_confirmation'));
      const shipping = (await outboxOf(email)).find((m) => m.kind === 'shipping_confirmation')!;
      expect(shipping.text).to.include('UPS tracking number: 1Z999').and.include('https://ups.example/1Z999');

      expect((await api.post(`/v1/orders/${order.id}/refund`, { amount: 500 }, owner.as)).status).to.equal(200);
      await until('the refund email', async () => (await kindsOf(email)).includes('order_refund'));
      expect((await outboxOf(email)).find((m) => m.kind === 'order_refund')!.subject).to.equal(`Refund for order #${order.number}`);

      const second = await givenOrder(api, owner.as, { email });
      expect((await api.post(`/v1/orders/${second.id}/cancel`, {}, owner.as)).status).to.equal(200);
      await until('the cancellation', async () => (await kindsOf(email)).includes('order_cancelled'));
      await fanOutAgain(second.id);
      await fanOutAgain(order.id);
      expect(await kindsOf(email)).to.deep.equal(['order_cancelled', 'order_confirmation', 'order_confirmation', 'order_refund', 'shipping_confirmation']);
    });

    it('uses the store’s edited template for the next email', async () => {
      await api.put(`${BASE}/order_confirmation`, { subject: 'Yours: {{ order.name }}', text: 'Thanks {{ order.email }}', html: '<p>Thanks</p>' }, owner.as);
      const email = `edited-${unique()}@example.com`;
      const order = await givenOrder(api, owner.as, { email });
      await until('the confirmation', async () => (await outboxOf(email)).length > 0);
      const [message] = await outboxOf(email);
      expect(message!.subject).to.equal(`Yours: #${order.number}`);
      expect(message!.text).to.equal(`Thanks ${email}`);
      await api.delete(`${BASE}/order_confirmation`, owner.as);
    });
  });
});
