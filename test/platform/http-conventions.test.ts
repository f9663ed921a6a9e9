import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/config.js';
import { createWebApp } from '../../src/boot.js';
import { createLog } from '../../src/log.js';
import { createEvents } from '../../src/events/index.js';
import { systemClock } from '../../src/clock.js';
import type { Platform } from '../../src/platform.js';
import { testEnv, useTestApp } from '../helpers/app.js';
import { counts } from '../helpers/database.js';
import { givenMerchant } from '../helpers/factories.js';
import { client } from '../helpers/http.js';

describe('HTTP conventions', () => {
  const { app, api } = useTestApp('http');

  describe('GET /health', () => {
    it('answers 200 with the database status', async () => {
      const res = await api.get('/health');
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include({ status: 'ok', database: 'ok', environment: 'test' });
      expect(res.body.data.version).to.be.a('string');
    });

    it('answers 503 with the same shape when the database does not answer', async () => {
      // A platform whose client has been closed: every command fails, as with a dead server.
      const config = loadConfig(testEnv('t_health_down'));
      const mongo = new MongoClient(process.env.MONGODB_URL!);
      await mongo.connect();
      const db = mongo.db('t_health_down');
      await mongo.close();
      const platform = {
        config,
        db,
        clock: systemClock,
        events: createEvents(db, systemClock, []),
        log: createLog('silent', {}),
        jobs: null,
        process: { name: 'web', id: 'web:test' },
      } as unknown as Platform;
      const server = createWebApp(platform).listen(0, '127.0.0.1');
      await new Promise((r) => server.once('listening', r));
      try {
        const res = await client(`http://127.0.0.1:${(server.address() as AddressInfo).port}`).get('/health');
        expect(res.status).to.equal(503);
        expect(res.body.data).to.include({ status: 'unavailable', database: 'unavailable' });
      } finally {
        server.close();
      }
    });
  });

  describe('routing', () => {
    it('answers an unknown path with a JSON 404 envelope', async () => {
      const res = await api.get('/v1/nothing-here');
      expect(res.status).to.equal(404);
      expect(res.body.error).to.include({ code: 'route_not_found' });
      expect(res.body.error.request_id).to.equal(res.headers.get('x-request-id'));
    });

    it('answers a path under a mount that has no route there with a JSON 404', async () => {
      for (const mount of ['/v1/storefront', '/v1/app-store', '/v1/operations', '/v1/app-store/oauth']) {
        const res = await api.get(mount);
        expect(res.status, mount).to.equal(404);
        expect(res.body.error.code).to.equal('route_not_found');
      }
    });

    it('answers a known path with a wrong method with 405 and Allow', async () => {
      const res = await api.get('/v1/auth/signin');
      expect(res.status).to.equal(405);
      expect(res.headers.get('allow')).to.equal('POST');
      expect(res.body.error.code).to.equal('method_not_allowed');
      const del = await api.delete('/health');
      expect(del.status).to.equal(405);
    });

    it('answers a method the router does not know with 405, not 501', async () => {
      const res = await api.send('PROPFIND', '/v1/auth/signin');
      expect(res.status).to.equal(405);
      expect(res.body.error.code).to.equal('method_not_allowed');
    });
  });

  describe('X-Request-Id', () => {
    it('echoes a sane request id and generates one otherwise', async () => {
      const echoed = await api.get('/health', { headers: { 'x-request-id': 'client-abc-12345' } });
      expect(echoed.headers.get('x-request-id')).to.equal('client-abc-12345');
      const generated = await api.get('/health', { headers: { 'x-request-id': 'bad id with spaces <script>' } });
      expect(generated.headers.get('x-request-id')).to.match(/^req_[0-9a-f]{24}$/);
    });
  });

  describe('request bodies', () => {
    const signup = { email: 'body@example.com', password: 'long enough password', name: 'Body' };

    async function expectNothingChanged(request: () => Promise<{ status: number; body: any }>, status: number, code: string) {
      const before = await counts(app.platform.db);
      const res = await request();
      expect(res.status, JSON.stringify(res.body)).to.equal(status);
      expect(res.body.error.code).to.equal(code);
      expect(res.body.error.request_id).to.be.a('string');
      expect(await counts(app.platform.db)).to.deep.equal(before);
    }

    it('refuses a body larger than the limit with 413', async () => {
      const huge = { ...signup, name: 'x'.repeat(app.config.http.bodyLimitBytes + 10) };
      await expectNothingChanged(() => api.post('/v1/auth/signup', huge), 413, 'payload_too_large');
    });

    it('refuses an over-large chunked body (no Content-Length) with 413', async () => {
      const big = JSON.stringify({ ...signup, name: 'y'.repeat(app.config.http.bodyLimitBytes + 10) });
      const stream = new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(big));
          controller.close();
        },
      });
      await expectNothingChanged(
        async () => {
          const r = await fetch(`${app.url}/v1/auth/signup`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: stream,
            duplex: 'half',
          } as RequestInit);
          return { status: r.status, body: await r.json() };
        },
        413,
        'payload_too_large',
      );
    });

    it('refuses a body that is not JSON with 415', async () => {
      await expectNothingChanged(
        () => api.post('/v1/auth/signup', 'email=a@b.c&password=x', { headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
        415,
        'unsupported_media_type',
      );
      await expectNothingChanged(
        () => api.post('/v1/auth/signup', JSON.stringify(signup), { headers: { 'content-type': 'text/plain' } }),
        415,
        'unsupported_media_type',
      );
    });

    it('refuses malformed JSON with 400', async () => {
      await expectNothingChanged(() => api.post('/v1/auth/signup', '{"email": "a@b.c", '), 400, 'invalid_json');
    });

    it('refuses a JSON body that is not an object with 400', async () => {
      await expectNothingChanged(() => api.post('/v1/auth/signup', '"just a string"'), 400, 'invalid_json');
      await expectNothingChanged(() => api.post('/v1/auth/signup', [signup]), 400, 'invalid_input');
    });

    it('refuses huge, malformed and non-JSON bodies on every write route of /v1/auth and /v1/stores, changing nothing', async () => {
      const { token } = await givenMerchant(api);
      const store = await api.post('/v1/stores', { name: 'Routes', subdomain: 'routes-shop' }, { token });
      const routes: [string, string][] = [
        ['POST', '/v1/auth/signup'],
        ['POST', '/v1/auth/signin'],
        ['POST', '/v1/auth/signin/otp'],
        ['POST', '/v1/auth/signin/otp/verify'],
        ['POST', '/v1/auth/signout'],
        ['POST', '/v1/auth/password/reset'],
        ['POST', '/v1/auth/password/update'],
        ['POST', '/v1/stores'],
        ['PATCH', `/v1/stores/${store.body.data.id}`],
      ];
      const huge = JSON.stringify({ name: 'z'.repeat(app.config.http.bodyLimitBytes + 1) });
      for (const [method, path] of routes) {
        const headers = { authorization: `Bearer ${token}` };
        await expectNothingChanged(() => api.send(method, path, huge, { headers }), 413, 'payload_too_large');
        await expectNothingChanged(() => api.send(method, path, '{"name": tru', { headers }), 400, 'invalid_json');
        await expectNothingChanged(
          () => api.send(method, path, '<xml/>', { headers: { ...headers, 'content-type': 'application/xml' } }),
          415,
          'unsupported_media_type',
        );
        await expectNothingChanged(() => api.send(method, path, { unexpected: { nested: [1, 2, 3] } }, { headers }), 400, 'invalid_input');
      }
      expect((await api.get('/v1/auth/custom/session', { token })).status, 'signout with a bad body must not sign out').to.equal(200);
    });

    it('refuses a body nested deeper than 64 levels with 400 body_too_deep before anything reads it: idempotent public and merchant routes, forms too', async () => {
      const { token } = await givenMerchant(api);
      const store = await api.post('/v1/stores', { name: 'Deep', subdomain: 'deep-shop' }, { token });
      const as = { token, storeId: store.body.data.id as string, headers: { 'idempotency-key': 'deep-1' } };
      const nested = (levels: number, open = '{"a":', close = '}') => open.repeat(levels - 1) + '[1]' + close.repeat(levels - 1);
      const deep = nested(20_000);
      const deepArrays = '['.repeat(20_000) + ']'.repeat(20_000);
      // The public cart and checkout (idempotent, no credentials), and a merchant's idempotent create.
      for (const [path, options] of [
        ['/v1/storefront/deep-shop/cart', { headers: { 'idempotency-key': 'deep-1' } }],
        ['/v1/storefront/deep-shop/orders', { headers: { 'idempotency-key': 'deep-2', 'x-cart-token': 'x' } }],
        ['/v1/products', as],
        ['/v1/stores', { token, headers: { 'idempotency-key': 'deep-3' } }],
      ] as const) {
        for (const body of [deep, deepArrays, `{"items": ${nested(65, '[', ']')}}`]) {
          await expectNothingChanged(() => api.send('POST', path, body, options), 400, 'body_too_deep');
        }
      }
      // 64 levels are read (and then judged by the route's schema); brackets inside strings are text, not nesting.
      const at64 = await api.send('POST', '/v1/products', nested(64), as);
      expect([at64.status, at64.body.error.code], JSON.stringify(at64.body)).to.deep.equal([400, 'invalid_input']);
      const inText = await api.send(
        'POST',
        '/v1/products',
        JSON.stringify({ title: '['.repeat(100) + '{'.repeat(100) + '\\"[', status: 'draft', variants: [{ price: 1 }] }),
        as,
      );
      expect(inText.status, JSON.stringify(inText.body)).to.equal(201);
      // The token endpoint's forms: nesting by brackets in the keys.
      await expectNothingChanged(
        () =>
          api.send('POST', '/v1/app-store/oauth/token', `grant_type=x&a${'[b]'.repeat(65)}=1`, {
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
          }),
        400,
        'body_too_deep',
      );
    });

    it('never answers 500 to garbage, and says where the input is wrong', async () => {
      const res = await api.post('/v1/auth/signup', { email: 42, password: ['x'], name: null, extra: true });
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('invalid_input');
      expect(res.body.error.details).to.be.an('array');
      const details = res.body.error.details.join('\n');
      expect(details).to.match(/body\.email/);
      expect(details).to.match(/body\.password/);
      expect(details).to.match(/body\.name/);
      expect(details).to.match(/extra/);
    });
  });
});
