import { expect } from 'chai';
import { fanOutEvents } from '../../src/webhooks/deliveries/fan-out.js';
import { useTestApp } from '../helpers/app.js';
import { givenLocation } from '../helpers/catalog.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { mailbox, mailEvents, smtpEnv, waitForMail } from '../helpers/mail.js';
import { givenOrder } from '../helpers/orders.js';
import { startWorker, stopAll, type RunningProcess } from '../helpers/processes.js';
import { sweep } from '../helpers/sweeps.js';
import { until } from '../helpers/waiting.js';

/**
 * The store's order emails end to end over SMTP (docs/notifications.md, docs/mail.md): an order's
 * events reach the real webhooks worker, which renders the store's notification and sends it with
 * nodemailer to the tests' SMTP server (aiosmtpd, tools/smtp/server.py); the test reads what the
 * server kept. Once per order, whatever fans out twice or dies mid-send.
 */
describe('Order emails over SMTP (the webhooks worker, a real SMTP server)', () => {
  // A short lease: a dead worker's message is due again in seconds.
  const env = () => ({ ...smtpEnv(), MESSAGES_LEASE_MS: '8000', MESSAGES_RETRY_BASE_MS: '500' });
  const { app, api } = useTestApp('order_mail_smtp', env);
  const running: RunningProcess[] = [];
  let worker: RunningProcess;
  let owner: GivenMerchantWithStore;
  let location: string;

  before(async () => {
    owner = await givenMerchantWithStore(api);
    location = await givenLocation(api, owner.as);
    await api.patch(`/v1/stores/${owner.store.id}`, { email_sender: { name: 'Lumen Orders', email: 'orders@lumen.example' } }, owner.as);
    worker = await startWorker(app, 'webhooks', running, env());
  });
  after(() => stopAll(running));

  const messagesTo = (to: string) => app.platform.db.collection('outbound_messages').find({ to }).toArray();
  /** Every message to `to` delivered (none queued): what the server holds then is all it will get. */
  const allDelivered = (to: string, count: number) =>
    until(`${count} messages to ${to} delivered`, async () => {
      const docs = await messagesTo(to);
      return docs.length === count && docs.every((d) => d.status === 'delivered');
    });
  async function fanOutAgain(orderId: string): Promise<void> {
    const events = await app.platform.db.collection('events').find({ 'payload.order.id': orderId }).toArray();
    await app.platform.db.collection('events').updateMany({ _id: { $in: events.map((e) => e._id) } }, { $set: { fanned_out_at: null } });
    await fanOutEvents(
      app.platform,
      events.map((e) => e._id.toHexString()),
      'test-again',
    );
  }

  it('sends the confirmation once (both parts, the store as sender, the links), then the shipment, refund and cancellation', async () => {
    const email = mailbox('shopper');
    const order = await givenOrder(api, owner.as, { email, financial_status: 'paid', line_items: [{ title: 'Candle', price: 1800, quantity: 2 }] });
    const [confirmation] = await waitForMail(email);
    await fanOutAgain(order.id);

    expect(confirmation!.subject).to.equal(`Order #${order.number} confirmed`);
    expect(confirmation!.from?.value[0]).to.include({ name: 'Lumen Orders' });
    expect(confirmation!.replyTo?.value[0]?.address).to.equal('orders@lumen.example');
    expect(confirmation!.headers.get('auto-submitted')).to.equal('auto-generated');
    expect(confirmation!.text).to.include('2 × Candle').and.include('$36.00').and.include(`/checkout/orders/${order.id}`);
    expect(confirmation!.html).to.include('Candle').and.include(`/checkout/orders/${order.id}"`);

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
    const shipped = (await waitForMail(email, 2)).find((m) => m.subject !== confirmation!.subject)!;
    expect(shipped.text).to.include('UPS tracking number: 1Z999').and.include('https://ups.example/1Z999');
    expect(shipped.html).to.include('href="https://ups.example/1Z999"');

    expect((await api.post(`/v1/orders/${order.id}/refund`, { amount: 500 }, owner.as)).status).to.equal(200);
    const refunded = (await waitForMail(email, 3)).find((m) => m.subject === `Refund for order #${order.number}`);
    expect(refunded, 'the refund email').to.not.equal(undefined);

    const second = await givenOrder(api, owner.as, { email });
    expect((await api.post(`/v1/orders/${second.id}/cancel`, {}, owner.as)).status).to.equal(200);
    await fanOutAgain(second.id);
    await fanOutAgain(order.id);
    // Two confirmations (one per order), the shipment, the refund, the cancellation: each once.
    await allDelivered(email, 5);
    const subjects = (await waitForMail(email, 5)).map((m) => m.subject).sort();
    expect(subjects).to.have.length(5);
    expect(new Set(subjects.map((s) => s))).to.have.property('size', 5);
    expect(subjects.filter((s) => /cancel/i.test(s ?? ''))).to.have.length(1);
  });

  it('loses and doubles nothing when the worker dies while the server holds the confirmation: after a restart it arrives once', async () => {
    const email = mailbox('crash', 'hold30');
    const order = await givenOrder(api, owner.as, { email, financial_status: 'paid', line_items: [{ title: 'Lamp', price: 6400, quantity: 1 }] });
    await until('the server to hold the reply to DATA', async () => mailEvents(email).includes('data held'));
    const [held] = await messagesTo(email);
    expect(held).to.include({ status: 'queued', kind: 'order_confirmation' });

    worker.child.kill('SIGKILL');
    await worker.exited;
    await until('the server to drop the message of the vanished client', async () => mailEvents(email).includes('data dropped'));
    worker = await startWorker(app, 'webhooks', running, env());
    await until('the lease to run out', async () => held!.lease_until.getTime() < Date.now() - 100);
    await sweep('maintenance.redispatch-stranded-messages', { ...app.platform, clock: { now: () => new Date(Date.now() + 5 * 60_000) } });

    const [mail] = await waitForMail(email);
    expect(mail!.subject).to.equal(`Order #${order.number} confirmed`);
    await allDelivered(email, 1);
    await fanOutAgain(order.id);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await waitForMail(email)).to.have.length(1);
    expect(mailEvents(email).filter((e) => e.startsWith('data 250'))).to.have.length(1);
  });
});
