import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { sendMessage } from '../../src/messages/index.js';
import { useTestApp } from '../helpers/app.js';
import { givenCustomer } from '../helpers/customers.js';
import { givenMerchant, givenMerchantWithStore } from '../helpers/factories.js';
import { mailbox, mailEvents, smtpEnv, testSmtp, waitForMail } from '../helpers/mail.js';
import { startWorker, stopAll, type RunningProcess } from '../helpers/processes.js';
import { sweep } from '../helpers/sweeps.js';
import { until } from '../helpers/waiting.js';

/**
 * The SMTP transport end to end (docs/mail.md): the web side records a message, the real webhooks
 * worker sends it with nodemailer to the tests' SMTP server (aiosmtpd with tools/smtp/server.py,
 * started by test/run.ts), and the test reads what the server kept. Recipients' addresses tell the
 * server how to answer (test/helpers/mail.ts).
 */
describe('Email over SMTP (the webhooks worker, nodemailer, a real SMTP server)', () => {
  // A short lease and retry base: a dead worker's message and a retry are due in seconds, not minutes.
  const env = () => ({ ...smtpEnv(), MESSAGES_LEASE_MS: '8000', MESSAGES_RETRY_BASE_MS: '500' });
  const operator = mailbox('operator');
  const { app, api } = useTestApp('mail_smtp', () => ({ ...env(), OPERATOR_EMAILS: operator }));
  const running: RunningProcess[] = [];
  let worker: RunningProcess;
  before(async () => {
    worker = await startWorker(app, 'webhooks', running, env());
  });
  after(() => stopAll(running));

  const stored = (id: string) => app.platform.db.collection('outbound_messages').findOne({ _id: new ObjectId(id) });
  const settled = (to: string, status: string) =>
    until(`the message to ${to} to be ${status}`, () => app.platform.db.collection('outbound_messages').findOne({ to, status }));

  it("sends a merchant's password reset: its headers, its text, the link intact; the record keeps no body once delivered", async () => {
    const email = mailbox('reset');
    await givenMerchant(api, { email });
    expect((await api.post('/v1/auth/password/reset', { email })).status).to.equal(202);
    const [mail] = await waitForMail(email);
    const message = await settled(email, 'delivered');
    const id = message._id.toHexString();

    expect(mail!.subject).to.equal('Reset your Emporium password');
    expect(mail!.from!.value).to.deep.equal([{ name: 'Emporium', address: 'no-reply@emporium.test' }]);
    expect(mail!.to).to.deep.include({ text: email });
    expect(mail!.messageId).to.equal(`<${id}@emporium.test>`);
    expect(mail!.headers.get('auto-submitted')).to.equal('auto-generated');
    expect(mail!.date!.toISOString()).to.equal(new Date(Math.floor(message.created_at.getTime() / 1000) * 1000).toISOString());
    expect(mail!.html, 'text only').to.equal(false);
    const link = /(http:\/\/127\.0\.0\.1:\d+\/password\/reset\/new\?token=[\w-]+)\n/.exec(mail!.text!);
    expect(link, mail!.text).to.not.equal(null);
    // The link works: the reset page takes its token.
    expect((await api.get(link![1]!.replace(/^http:\/\/[^/]+/, ''))).status).to.equal(200);

    expect(message).to.include({ transport: 'smtp', attempts: 1, body_encrypted: null, html_encrypted: null, last_error: null });
    expect(mailEvents(email)).to.deep.equal([`data 250 <${id}@emporium.test>`]);
  });

  it("sends a store's email from the platform's address under the store's name, answered to the store; with its HTML part beside the text", async () => {
    const { merchant, store } = await givenMerchantWithStore(api);
    const as = { token: merchant.token, storeId: store.id };
    const sender = { name: 'Corner "Shop", Ltd', email: 'hello@corner-shop.example' };
    expect((await api.patch(`/v1/stores/${store.id}`, { email_sender: sender }, as)).status).to.equal(200);
    // An existing message of a store: its customer's account invitation (text only).
    const email = mailbox('invite');
    const customer = await givenCustomer(api, as, { email });
    expect((await api.post(`/v1/customers/${customer.id}/invite`, {}, as)).status).to.equal(202);
    const [invite] = await waitForMail(email);
    expect(invite!.from!.value).to.deep.equal([{ name: sender.name, address: 'no-reply@emporium.test' }]);
    expect(invite!.replyTo!.value).to.deep.equal([{ name: sender.name, address: sender.email }]);
    expect(invite!.subject).to.match(/ invites you to open your account$/);
    expect(invite!.text).to.include('Open this link to choose your password').and.include('/account/activate?token=emp_csact_');

    // A store's notification with an HTML part (as the store's templates send it).
    const to = mailbox('order');
    const html = '<p>Thank you, Ada.</p><p><a href="https://corner-shop.example/account/orders/1001?key=a1&amp;ref=mail">See your order</a> – 12,50 €</p>';
    const text = 'Thank you, Ada.\n\nSee your order: https://corner-shop.example/account/orders/1001?key=a1&ref=mail – 12,50 €';
    const id = await sendMessage(app.platform, {
      kind: 'order_confirmation',
      to,
      subject: 'Order #1001 confirmed',
      text,
      html,
      from: sender,
      store_id: store.id,
    });
    const [order] = await waitForMail(to);
    expect(order!.headers.get('content-type')).to.deep.include({ value: 'multipart/alternative' });
    expect(order!.text!.trim()).to.equal(text);
    expect(order!.html).to.equal(html);
    expect(order!.html).to.include('href="https://corner-shop.example/account/orders/1001?key=a1&amp;ref=mail"');
    expect(order!.messageId).to.equal(`<${id}@emporium.test>`);
    expect(await settled(to, 'delivered')).to.include({ transport: 'smtp', body_encrypted: null, html_encrypted: null });
  });

  it('retries a temporary failure (451) with backoff, then delivers it once', async () => {
    const to = mailbox('greylisted', 'tempfail2');
    const id = await sendMessage(app.platform, { kind: 'signin_code', to, subject: 'Your code', text: 'Your code is 123456.' });
    const [mail] = await waitForMail(to);
    const message = await settled(to, 'delivered');
    expect(message).to.include({ attempts: 3, transport: 'smtp', last_error: null, body_encrypted: null });
    expect(mail!.messageId).to.equal(`<${id}@emporium.test>`);
    expect(mailEvents(to)).to.deep.equal(['rcpt 451', 'rcpt 451', `data 250 <${id}@emporium.test>`]);
    // Each failed attempt was logged with the server's answer; a copy more would show by now.
    expect(worker.output()).to.match(new RegExp(`"message_id":"${id}","outcome":"succeeded"`));
    await new Promise((r) => setTimeout(r, 1500));
    expect(await waitForMail(to)).to.have.length(1);
  });

  it("fails a permanent failure (550) at once, with the server's answer, and forgets the body", async () => {
    const to = mailbox('nobody', 'reject');
    const id = await sendMessage(app.platform, { kind: 'signin_code', to, subject: 'Your code', text: 'Your code is 654321.', html: '<p>654321</p>' });
    const message = await settled(to, 'failed');
    expect(message).to.include({ attempts: 1, status: 'failed', next_attempt_at: null, body_encrypted: null, html_encrypted: null });
    expect(message.last_error).to.match(new RegExp(`^SMTP 550 5\\.1\\.1 <${to.replace(/\./g, '\\.')}>: Recipient address rejected`));
    expect(mailEvents(to)).to.deep.equal(['rcpt 550']);
    const retry = await app.platform.db.collection('agendaJobs').findOne({ name: 'messages.deliver', 'data.message_id': id, nextRunAt: { $gt: new Date() } });
    expect(retry, 'no retry scheduled').to.equal(null);
  });

  it('loses and doubles nothing when the worker is killed while the server holds its reply to DATA: after a restart it arrives once', async () => {
    const to = mailbox('crash', 'hold30');
    const text = 'Your order ships tomorrow. Tracking: https://track.example/ZX81';
    const html = '<p>Your order ships tomorrow. <a href="https://track.example/ZX81">Track it</a></p>';
    const id = await sendMessage(app.platform, { kind: 'shipping_confirmation', to, subject: 'Shipped', text, html });
    await until('the server to hold the reply to DATA', async () => mailEvents(to).includes('data held'));

    // Meanwhile the record holds the message encrypted only, under the worker's lease.
    const held = (await stored(id))!;
    expect(held).to.include({ status: 'queued', attempts: 1 });
    expect(held.lease_owner).to.match(/^webhooks:/);
    for (const field of ['body_encrypted', 'html_encrypted']) {
      expect(held[field]).to.be.a('string');
      expect(held[field]).not.to.include('ZX81');
      expect(held[field]).not.to.include('tomorrow');
    }

    worker.child.kill('SIGKILL');
    await worker.exited;
    // The client is gone before the 250: the server does not keep the message (RFC 5321 4.1.1.4).
    await until('the server to drop the message of the vanished client', async () => mailEvents(to).includes('data dropped'));
    worker = await startWorker(app, 'webhooks', running, env());

    // The dead worker's lease runs out; the maintenance sweep hands the message to the new worker
    // (its delivery job stays locked by the dead worker for minutes).
    await until('the lease to run out', async () => held.lease_until.getTime() < Date.now() - 100);
    expect(
      await sweep('maintenance.redispatch-stranded-messages', { ...app.platform, clock: { now: () => new Date(Date.now() + 5 * 60_000) } }),
    ).to.be.at.least(1);

    const [mail] = await waitForMail(to);
    expect(mail!.messageId).to.equal(`<${id}@emporium.test>`);
    expect(mail!.html).to.equal(html);
    const message = await settled(to, 'delivered');
    expect(message).to.include({ attempts: 2, transport: 'smtp', body_encrypted: null, html_encrypted: null });
    expect(mailEvents(to)).to.deep.equal(['data held', 'data dropped', `data 250 <${id}@emporium.test>`]);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await waitForMail(to)).to.have.length(1);
  });

  it("tells the operators' readiness report that email leaves the platform over SMTP, naming the server without its credentials", async () => {
    const { token } = await givenMerchant(api, { email: operator });
    const res = await api.get('/v1/operations/runtime/readiness-report', { token });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const item = res.body.data.items.find((i: { check: string }) => i.check === 'message_relay');
    const { port } = new URL(testSmtp().url);
    expect(item).to.deep.equal({ check: 'message_relay', status: 'pass', detail: `SMTP_URL is set: email goes out through smtp://127.0.0.1:${port}` });
  });
});
