import { expect } from 'chai';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { counts, findPlaintext } from '../helpers/database.js';
import { givenMerchant, givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { client, type Client, type Reply } from '../helpers/http.js';

describe('Forms (/v1/storefront/:subdomain/forms/:form, /v1/form-submissions)', () => {
  let app: TestApp;
  let api: Client;
  before(async () => {
    // Behind a proxy, so each test can speak from an address of its own.
    app = await startTestApp('forms', { TRUST_PROXY: 'true' });
    api = client(app.url);
  });
  after(() => app.close());

  let ipCounter = 0;
  const nextIp = () => `203.0.113.${++ipCounter}`;
  const submit = (subdomain: string, form: string, body: unknown, ip = nextIp(), headers: Record<string, string> = {}) =>
    api.post(`/v1/storefront/${subdomain}/forms/${form}`, body, { headers: { 'x-forwarded-for': ip, ...headers } });

  describe('POST /v1/storefront/:subdomain/forms/:form', () => {
    it('accepts a contact form, stores it with a hashed IP and a truncated user agent, and records form_submission.created', async () => {
      const s = await givenMerchantWithStore(api);
      const ip = '198.51.100.77';
      const res = await submit(s.store.subdomain, 'contact', { fields: { name: 'Ada', email: 'ada@example.com', message: 'Hello there', website: '' } }, ip, {
        'user-agent': `Bot/1.0 ${'x'.repeat(500)}`,
      });
      expect(res.status).to.equal(202);
      expect(res.body).to.deep.equal({ data: { accepted: true } });
      const docs = await app.platform.db
        .collection('form_submissions')
        .find({ store_id: { $exists: true }, form: 'contact', 'fields.name': 'Ada' })
        .toArray();
      expect(docs).to.have.length(1);
      const doc = docs[0]!;
      expect(doc.store_id.toHexString()).to.equal(s.store.id);
      expect(doc.fields).to.deep.equal({ name: 'Ada', email: 'ada@example.com', message: 'Hello there' });
      expect(doc.user_agent).to.have.length(256);
      expect(doc.ip_hash).to.match(/^[^:]+:[0-9a-f]{64}$/);
      expect(Object.keys(doc).sort()).to.deep.equal(['_id', 'created_at', 'fields', 'form', 'ip_hash', 'store_id', 'user_agent']);
      expect(await findPlaintext(app.platform.db, ip)).to.deep.equal([]);
      expect(app.logLines.join('')).to.not.include(ip);
      const event = await app.platform.db
        .collection('events')
        .findOne({ type: 'form_submission.created', idempotency_key: `form_submission.created:${doc._id.toHexString()}` });
      expect(event?.store_id.toHexString()).to.equal(s.store.id);
      expect(event?.payload.form_submission).to.deep.include({ id: doc._id.toHexString(), form: 'contact', fields: doc.fields });
      expect(event?.payload.form_submission).to.not.have.property('ip_hash');
    });

    it('accepts custom kebab-case form names', async () => {
      const s = await givenMerchantWithStore(api);
      for (const form of ['wholesale-enquiry', 'a', 'x'.repeat(50), 'form-2']) {
        expect((await submit(s.store.subdomain, form, { fields: { note: 'hi' } })).status, form).to.equal(202);
      }
    });

    it('answers a filled-in honeypot exactly like success and stores nothing', async () => {
      const s = await givenMerchantWithStore(api);
      const real = await submit(s.store.subdomain, 'contact', { fields: { message: 'real' } });
      const before = await counts(app.platform.db);
      const bot = await submit(s.store.subdomain, 'contact', { fields: { message: 'buy now', website: 'http://spam.example' } });
      expect(bot.status).to.equal(real.status);
      expect(bot.body).to.deep.equal(real.body);
      const botNewsletter = await submit(s.store.subdomain, 'newsletter', { fields: { website: 'x' } });
      expect(botNewsletter.status).to.equal(202);
      const after = await counts(app.platform.db);
      expect({ ...after, rate_limits: 0 }).to.deep.equal({ ...before, rate_limits: 0 });
    });

    it('requires a valid email for newsletter sign-ups and stores it normalised', async () => {
      const s = await givenMerchantWithStore(api);
      const before = await counts(app.platform.db);
      for (const fields of [{}, { email: '' }, { email: 'not-an-email' }, { name: 'No Email' }]) {
        const res = await submit(s.store.subdomain, 'newsletter', { fields });
        expect(res.status, JSON.stringify(fields)).to.equal(400);
        expect(res.body.error.details.join(' ')).to.match(/body\.fields\.email/);
      }
      expect({ ...(await counts(app.platform.db)), rate_limits: 0 }).to.deep.equal({ ...before, rate_limits: 0 });
      expect((await submit(s.store.subdomain, 'newsletter', { fields: { email: ' News@Example.COM ' } })).status).to.equal(202);
      const doc = await app.platform.db.collection('form_submissions').findOne({ form: 'newsletter', 'fields.email': 'news@example.com' });
      expect(doc?.store_id.toHexString()).to.equal(s.store.id);
    });

    it('refuses bodies that are not a bounded flat string map, and bad form names, storing nothing', async () => {
      const s = await givenMerchantWithStore(api);
      const before = await counts(app.platform.db);
      const many = Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`f${i}`, 'v']));
      const big = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`f${i}`, 'v'.repeat(4500)]));
      for (const body of [
        {},
        { fields: 'text' },
        { fields: [] },
        { fields: { nested: { a: 'b' } } },
        { fields: { n: 42 } },
        { fields: { n: null } },
        { fields: { n: ['a'] } },
        { fields: { Upper: 'x' } },
        { fields: { 'has space': 'x' } },
        { fields: { '': 'x' } },
        { fields: { ['x'.repeat(65)]: 'x' } },
        { fields: { long: 'x'.repeat(5001) } },
        { fields: many },
        { fields: big },
        { fields: {}, extra: true },
        { fields: {}, website: 'x' },
        [],
      ]) {
        const res = await submit(s.store.subdomain, 'contact', body);
        expect(res.status, JSON.stringify(body).slice(0, 80)).to.equal(400);
        expect(res.body.error.code).to.equal('invalid_input');
      }
      for (const form of ['Contact', 'with_underscore', '-lead', 'trail-', 'double--hyphen', 'x'.repeat(51), 'sp%20ace']) {
        const res = await submit(s.store.subdomain, form, { fields: { a: 'b' } });
        expect(res.status, form).to.equal(400);
        expect(res.body.error.details.join(' ')).to.match(/params\.form/);
      }
      const text = await api.post(`/v1/storefront/${s.store.subdomain}/forms/contact`, 'name=x', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(text.status).to.equal(415);
      expect(await counts(app.platform.db)).to.deep.equal(before);
    });

    it('refuses the field name __proto__ (the body parser does) and keeps other names that collide with Object members as plain data', async () => {
      const s = await givenMerchantWithStore(api);
      const proto = await submit(s.store.subdomain, 'contact', JSON.parse('{"fields":{"__proto__":"x","ok":"z"}}'));
      expect(proto.status).to.equal(400);
      expect(proto.body.error.code).to.equal('invalid_json');
      expect((await submit(s.store.subdomain, 'contact', { fields: { constructor: 'y', tostring: 'z' } })).status).to.equal(202);
      const [item] = (await api.get('/v1/form-submissions', s.as)).body.data;
      expect(item.fields).to.deep.equal({ constructor: 'y', tostring: 'z' });
    });

    it('answers 404 for an unknown subdomain, storing nothing', async () => {
      const before = await counts(app.platform.db);
      for (const subdomain of ['no-such-shop', 'UPPER', 'x'.repeat(70)]) {
        const res = await submit(subdomain, 'contact', { fields: { a: 'b' } });
        expect(res.status, subdomain).to.equal(404);
        expect(res.body.error.code).to.equal('not_found');
      }
      expect(await counts(app.platform.db)).to.deep.equal(before);
    });

    it('limits each IP to 10 submissions per store per 10 minutes (429 with Retry-After), per store', async () => {
      const s = await givenMerchantWithStore(api);
      const other = await givenMerchantWithStore(api);
      const ip = nextIp();
      for (let i = 0; i < 10; i++)
        expect((await submit(s.store.subdomain, i % 2 ? 'contact' : 'newsletter', { fields: { email: `n${i}@example.com` } }, ip)).status).to.equal(202);
      const limited = await submit(s.store.subdomain, 'contact', { fields: { a: 'b' } }, ip);
      expect(limited.status).to.equal(429);
      expect(limited.body.error.code).to.equal('rate_limited');
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).to.be.within(1, 600);
      // A bot behind the same address gets the same answer.
      expect((await submit(s.store.subdomain, 'contact', { fields: { website: 'x' } }, ip)).status).to.equal(429);
      expect((await submit(other.store.subdomain, 'contact', { fields: { a: 'b' } }, ip)).status).to.equal(202);
      expect((await submit(s.store.subdomain, 'contact', { fields: { a: 'b' } }, nextIp())).status).to.equal(202);
      expect(
        await app.platform.db.collection('form_submissions').countDocuments({ store_id: { $exists: true }, 'fields.a': 'b', form: 'contact' }),
      ).to.be.at.least(2);
      expect(await findPlaintext(app.platform.db, ip)).to.deep.equal([]);
    });
  });

  describe('GET /v1/form-submissions', () => {
    async function givenSubmissions(s: GivenMerchantWithStore, forms: string[]): Promise<void> {
      for (const [i, form] of forms.entries()) {
        expect((await submit(s.store.subdomain, form, { fields: { email: `s${i}@example.com`, n: String(i) } })).status).to.equal(202);
      }
    }

    it("lists the store's submissions newest first, with cursor pagination and a form filter", async () => {
      const s = await givenMerchantWithStore(api);
      const other = await givenMerchantWithStore(api);
      await givenSubmissions(other, ['contact']);
      await givenSubmissions(s, ['contact', 'newsletter', 'contact', 'quote-request', 'contact']);
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res: Reply = await api.get(`/v1/form-submissions?limit=2${cursor ? `&cursor=${cursor}` : ''}`, s.as);
        expect(res.status).to.equal(200);
        seen.push(...res.body.data.map((x: any) => x.fields.n));
        cursor = res.body.page.next_cursor;
        pages++;
      } while (cursor);
      expect(seen).to.deep.equal(['4', '3', '2', '1', '0']);
      expect(pages).to.equal(3);
      const first = (await api.get('/v1/form-submissions?limit=1', s.as)).body.data[0];
      expect(first).to.have.all.keys('id', 'form', 'fields', 'user_agent', 'created_at');
      const contact = await api.get('/v1/form-submissions?form=contact', s.as);
      expect(contact.body.data.map((x: any) => x.fields.n)).to.deep.equal(['4', '2', '0']);
      const page1 = await api.get('/v1/form-submissions?form=contact&limit=2', s.as);
      const page2 = await api.get(`/v1/form-submissions?form=contact&limit=2&cursor=${page1.body.page.next_cursor}`, s.as);
      expect(page2.body.data.map((x: any) => x.fields.n)).to.deep.equal(['0']);
      expect(page2.body.page.next_cursor).to.equal(null);
    });

    it('filters by a created_at range (both ends exclusive)', async () => {
      const s = await givenMerchantWithStore(api);
      await givenSubmissions(s, ['contact', 'contact', 'contact']);
      const docs = await app.platform.db
        .collection('form_submissions')
        .find({ store_id: { $exists: true }, 'fields.n': { $exists: true } })
        .toArray();
      const mine = docs.filter((d) => d.store_id.toHexString() === s.store.id).sort((a, b) => a._id.toHexString().localeCompare(b._id.toHexString()));
      // Spread them over three days so the range is unambiguous.
      const days = ['2026-01-01T12:00:00.000Z', '2026-01-02T12:00:00.000Z', '2026-01-03T12:00:00.000Z'];
      for (const [i, d] of mine.entries())
        await app.platform.db.collection('form_submissions').updateOne({ _id: d._id }, { $set: { created_at: new Date(days[i]!) } });
      const range = async (q: string) => (await api.get(`/v1/form-submissions?${q}`, s.as)).body.data.map((x: any) => x.fields.n);
      expect(await range('created_after=2026-01-01T12:00:00Z')).to.deep.equal(['2', '1']);
      expect(await range('created_before=2026-01-03T12:00:00Z')).to.deep.equal(['1', '0']);
      expect(await range('created_after=2026-01-01T00:00:00Z&created_before=2026-01-02T13:00:00%2B00:00')).to.deep.equal(['1', '0']);
      expect(await range('created_after=2026-02-01T00:00:00Z')).to.deep.equal([]);
    });

    it('refuses bad query input', async () => {
      const s = await givenMerchantWithStore(api);
      for (const q of [
        'form=Bad_Name',
        'created_after=yesterday',
        'created_before=2026-13-01T00:00:00Z',
        'created_after=2026-02-01T00:00:00Z&created_before=2026-01-01T00:00:00Z',
        'limit=0',
        'cursor=x',
        'ip_hash=abc',
      ]) {
        const res = await api.get(`/v1/form-submissions?${q}`, s.as);
        expect(res.status, q).to.equal(400);
        expect(res.body.error.code).to.equal('invalid_input');
      }
    });

    it('shows a store only its own submissions; 403 for an X-Store-Id the caller does not own', async () => {
      const a = await givenMerchantWithStore(api);
      const b = await givenMerchantWithStore(api);
      await givenSubmissions(b, ['contact']);
      expect((await api.get('/v1/form-submissions', a.as)).body.data).to.deep.equal([]);
      const intruder = await givenMerchant(api);
      const res = await api.get('/v1/form-submissions', { token: intruder.token, storeId: b.store.id });
      expect(res.status).to.equal(403);
      expect(res.body.error.code).to.equal('store_forbidden');
      expect((await api.get('/v1/form-submissions', { storeId: b.store.id })).status).to.equal(401);
    });
  });
});
