import { expect } from 'chai';
import { ObjectId, type Document, type WithId } from 'mongodb';
import { useTestApp } from '../helpers/app.js';
import { givenCustomer } from '../helpers/customers.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { withFault } from '../helpers/faults.js';
import type { Reply } from '../helpers/http.js';

/**
 * PATCH /v1/customers/:id with a new email or name reads the customer, then writes on the
 * condition that email and names are still what it read (the search terms derive from them),
 * and reads again when they are not. Here another writer renames the customer between every
 * read and write, through the real database: the update gives up after a bounded number of
 * tries with 409 edit_conflict instead of looping for as long as the other writer keeps on.
 */
describe('Customer updates under concurrent renames', () => {
  const { app, api } = useTestApp('customer_conflict');
  let shop: GivenMerchantWithStore;
  before(async () => {
    shop = await givenMerchantWithStore(api);
  });

  /**
   * After each read of this customer, another writer renames it (as a concurrent PATCH would),
   * `times` times. The default is far past the bounded tries: an update that looped would
   * outlast them and succeed, and fail the test by its answer, not by a clock.
   */
  const renamedAfterEveryRead =
    (customerId: string, reads: { n: number }, times = 100) =>
    async (real: (...a: unknown[]) => Promise<unknown>, args: unknown[]) => {
      const found = (await real(...args)) as WithId<Document> | null;
      if (found && found._id.equals(new ObjectId(customerId)) && reads.n < times) {
        reads.n++;
        await app.platform.db.collection('customers').updateOne({ _id: found._id }, { $set: { first_name: `Other ${reads.n}` } });
      }
      return found;
    };

  it('gives up with 409 edit_conflict after 5 tries when the customer keeps being renamed, changing nothing', async () => {
    const customer = await givenCustomer(api, shop.as, { first_name: 'Ada', last_name: 'Lovelace' });
    const reads = { n: 0 };
    const res: Reply = await withFault(app.platform, 'customers', 'findOne', renamedAfterEveryRead(customer.id, reads), () =>
      api.patch(`/v1/customers/${customer.id}`, { last_name: 'King', note: 'from the PATCH' }, shop.as),
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(409);
    expect(res.body.error).to.include({ code: 'edit_conflict' });
    expect(reads.n).to.equal(5);
    const stored = await app.platform.db.collection('customers').findOne({ _id: new ObjectId(customer.id) });
    expect(stored).to.include({ last_name: 'Lovelace', note: null, first_name: 'Other 5' });
    const events = await app.platform.db.collection('events').find({ type: 'customer.updated', 'payload.customer.id': customer.id }).toArray();
    expect(events.filter((e) => e.payload.changed.includes('last_name'))).to.deep.equal([]);
  });

  it('absorbs a rename that lands between its read and its write, and applies both', async () => {
    const customer = await givenCustomer(api, shop.as, { first_name: 'Ada', last_name: 'Lovelace' });
    const reads = { n: 0 };
    const res: Reply = await withFault(app.platform, 'customers', 'findOne', renamedAfterEveryRead(customer.id, reads, 1), () =>
      api.patch(`/v1/customers/${customer.id}`, { last_name: 'King' }, shop.as),
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data).to.include({ first_name: 'Other 1', last_name: 'King' });
    expect(reads.n).to.equal(1);
    const found = await api.get(`/v1/customers?query=${encodeURIComponent('Other 1')}`, shop.as);
    expect(found.status, JSON.stringify(found.body)).to.equal(200);
    expect(found.body.data.map((c: { id: string }) => c.id)).to.deep.equal([customer.id]);
  });
});
