import { expect } from 'chai';
import { useTestApp } from '../helpers/app.js';
import { givenLocation } from '../helpers/catalog.js';
import { givenMerchantWithStore, unique, type As } from '../helpers/factories.js';
import { givenOrder } from '../helpers/orders.js';

/**
 * The orders list's filters a merchant needs (docs/orders.md, List orders): open or cancelled,
 * several fulfilment states at once, a time range, an order number or a customer's email, newest
 * first; and the store's figures by day that every order change keeps (the admin's Home).
 */
describe('Orders: list filters and the figures by day', () => {
  const { app, api } = useTestApp('orders_lists');
  let as: As;
  let location: string;
  const ids = async (query: string) => {
    const res = await api.get(`/v1/orders?${query}`, as);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return (res.body.data as { id: string }[]).map((o) => o.id);
  };
  const day = (offsetDays = 0) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
  const figures = () =>
    app.platform.db
      .collection('order_days')
      .findOne({ store_id: { $exists: true }, day: day() }, { projection: { _id: 0, orders: 1, sales: 1, pending_ops: 1 } });

  before(async () => {
    as = (await givenMerchantWithStore(api)).as;
    location = await givenLocation(api, as);
  });

  it('filters by status, several fulfilment states, a time range, a number or an email, newest first', async () => {
    const email = `ada-${unique()}@example.com`;
    const paid = await givenOrder(api, as, { email, financial_status: 'paid' });
    const shipped = await givenOrder(api, as, { financial_status: 'paid' });
    const fulfil = await api.post(
      `/v1/orders/${shipped.id}/fulfill`,
      { location_id: location, line_items: [{ line_item_id: shipped.line_items[0].id, quantity: 1 }] },
      as,
    );
    expect(fulfil.status, JSON.stringify(fulfil.body)).to.equal(200);
    const cancelled = await givenOrder(api, as);
    expect((await api.post(`/v1/orders/${cancelled.id}/cancel`, {}, as)).status).to.equal(200);

    expect(await ids('status=cancelled')).to.deep.equal([cancelled.id]);
    expect(await ids('status=open')).to.deep.equal([paid.id, shipped.id]);
    expect(await ids('status=open&fulfillment_status=unfulfilled,partial')).to.deep.equal([paid.id]);
    expect(await ids('fulfillment_status=fulfilled')).to.deep.equal([shipped.id]);
    expect(await ids('order=newest')).to.deep.equal([cancelled.id, shipped.id, paid.id]);
    // Newest first, a page at a time, through the cursors.
    const first = await api.get('/v1/orders?order=newest&limit=2', as);
    expect(first.body.data.map((o: { id: string }) => o.id)).to.deep.equal([cancelled.id, shipped.id]);
    expect(await ids(`order=newest&limit=2&cursor=${first.body.page.next_cursor}`)).to.deep.equal([paid.id]);

    expect(await ids(`created_at_min=${day()}&created_at_max=${day()}`)).to.have.length(3);
    expect(await ids(`created_at_min=${day(1)}`)).to.deep.equal([]);
    expect(await ids(`created_at_max=${day(-1)}`)).to.deep.equal([]);
    expect(await ids(`created_at_min=${encodeURIComponent(paid.created_at)}&created_at_max=${encodeURIComponent(paid.created_at)}`)).to.deep.equal([paid.id]);

    expect(await ids(`q=${paid.number}`)).to.deep.equal([paid.id]);
    expect(await ids(`q=%23${shipped.number}`)).to.deep.equal([shipped.id]);
    expect(await ids(`q=${encodeURIComponent(email.toUpperCase())}`)).to.deep.equal([paid.id]);
    expect(await ids(`q=${encodeURIComponent(email.slice(0, 8))}`)).to.deep.equal([paid.id]);
    expect(await ids('q=.*')).to.deep.equal([]);

    for (const bad of [
      'status=closed',
      'fulfillment_status=shipped',
      'fulfillment_status=paid,',
      'created_at_min=yesterday',
      'order=random',
      'q=' + 'x'.repeat(300),
    ]) {
      expect((await api.get(`/v1/orders?${bad}`, as)).status, bad).to.equal(400);
    }
  });

  it('keeps the store’s orders and sales of the day as orders are made, paid and refunded', async () => {
    const before = (await figures()) ?? { orders: 0, sales: 0 };
    const paid = await givenOrder(api, as, { financial_status: 'paid' }); // 10.00 taken
    const pending = await givenOrder(api, as); // nothing taken yet
    expect((await api.post(`/v1/orders/${pending.id}/mark-paid`, {}, as)).status).to.equal(200);
    expect((await api.post(`/v1/orders/${paid.id}/refund`, { amount: 300 }, as)).status).to.equal(200);
    expect((await api.post(`/v1/orders/${pending.id}/cancel`, {}, as)).status).to.equal(200);
    const after = await figures();
    expect(after).to.deep.equal({ orders: before.orders + 2, sales: before.sales + paid.total + pending.total - 300 - pending.total, pending_ops: [] });
  });
});
