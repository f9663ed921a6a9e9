import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ObjectId } from 'mongodb';
import { SCOPE_NAMES } from '../../src/apps/oauth/scopes.js';
import { serveInternal } from '../../src/http/internal.js';
import { MODULES } from '../../src/modules.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { givenPublishedApp, installApp, type GivenApp } from '../helpers/apps.js';
import { givenMerchant, givenMerchantWithStore, type GivenMerchant, type GivenMerchantWithStore } from '../helpers/factories.js';
import {
  HOSTILE_BODIES,
  HOSTILE_HEADERS,
  HOSTILE_PARAMS,
  HOSTILE_QUERIES,
  HOSTILE_QUERY_VALUES,
  HOSTILE_VALUES,
  OAUTH_PARAMETERS,
  PROTOTYPE_NAMES,
  fillPath,
  jsonSchemaOf,
  mutationPoints,
  paramsOf,
  routesOf,
  sampleOf,
  withValueAt,
  type FuzzRoute,
  type RawBody,
} from '../helpers/fuzz.js';
import { client, type Client } from '../helpers/http.js';
import { png } from '../helpers/images.js';
import { bundleOf } from '../helpers/theme-uploads.js';
import { HOSTILE_BULK_QUERIES, hostileGraphqlBodies } from '../helpers/graphql-hostile.js';

const OPERATOR = 'op-fuzz@example.com';
const INTERNAL_SECRET = `fuzz-internal-secret-${'s'.repeat(24)}`;
/** Hostile values tried per body (and per query) of a route, rotating over the points and values so the routes together try them all. */
const MUTATIONS_PER_ROUTE = 16;
const QUERY_MUTATIONS_PER_ROUTE = 12;
/**
 * No answer within this is a hang, a failure like a 5xx. It bounds a hang, not a time: an answer
 * that was slow on a busy machine is an answer (the slowest is printed; routes' times are the benches').
 */
const ANSWER_WITHIN_MS = 2 * 60_000;

/**
 * Issue 21, part 9: every route of the module list (src/modules.ts, read from the routers'
 * layers, the internal service's too) gets hostile input from every kind of caller, and no
 * answer is a 5xx; no caller but store A's own reads store A's private data, and store B's
 * callers change none of A's documents. A new route is covered as soon as a module mounts it.
 * docs/conventions.md (Errors) describes what this holds the platform to.
 */
describe('Every route under hostile input, from every kind of caller (fuzz)', function () {
  this.timeout(15 * 60_000);
  let app: TestApp;
  let api: Client;
  let storage: string;
  let internal: { server: import('node:http').Server; close(): Promise<void> };
  let internalUrl: string;
  let routes: FuzzRoute[];
  let a: Seed;
  let b: Seed;
  let operator: GivenMerchant;
  let kinds: Map<string, Kind>;
  const failures: string[] = [];
  const stats = { requests: 0, byStatus: new Map<number, number>(), started: 0, slowest: { ms: 0, what: '' } };
  /** FUZZ_LOG=<file>: every request's route, caller, what was hostile, status and error code, one line each (tab-separated). */
  const log: string[] = [];

  before(async () => {
    storage = mkdtempSync(join(tmpdir(), 'emporium-fuzz-'));
    app = await startTestApp('fuzz_routes', { OPERATOR_EMAILS: OPERATOR, INTERNAL_SECRET, TRUST_PROXY: 'true', STORAGE_LOCAL_DIR: storage });
    api = client(app.url);
    const internalRoutes = MODULES.flatMap((m) => (m.internal ? [m.internal(app.platform)] : []));
    internal = await serveInternal(app.platform, internalRoutes);
    internalUrl = `http://127.0.0.1:${(internal.server.address() as AddressInfo).port}`;
    routes = [
      ...routesOf(MODULES.flatMap((m) => (m.routes ?? []).map(({ path, router }) => ({ path, router: router(app.platform) })))),
      ...routesOf(
        internalRoutes.map((r) => ({ path: '', router: r.router })),
        true,
      ),
    ];
    operator = await givenMerchant(api, { email: OPERATOR });
    const apps = {
      full: await givenPublishedApp(api, operator.token, { scopes: SCOPE_NAMES }),
      narrow: await givenPublishedApp(api, operator.token, { scopes: ['read_orders'] }),
    };
    a = await seedStore(api, app.url, 'a', apps);
    b = await seedStore(api, app.url, 'b', apps);
    kinds = credentialKinds(api, a, b, apps, operator);
  });
  after(async () => {
    if (process.env.FUZZ_LOG) writeFileSync(process.env.FUZZ_LOG, `${log.join('\n')}\n`);
    await internal?.close();
    await app?.close();
    rmSync(storage, { recursive: true, force: true });
  });

  it('reads every route from the module list (no hand-written list)', () => {
    expect(routes.length).to.be.greaterThan(150);
    // Each mount of each module is there, and the internal service's routes.
    for (const m of MODULES)
      for (const mount of m.routes ?? [])
        expect(
          routes.some((r) => r.path.startsWith(mount.path)),
          mount.path,
        ).to.equal(true);
    expect(routes.some((r) => r.internal)).to.equal(true);
    // The API's routes are declared with endpoint(); the platform's pages (/login, /console: HTML forms) are routers of their own.
    const apiRoutes = routes.filter((r) => r.internal || r.path.startsWith('/v1'));
    expect(apiRoutes.filter((r) => r.spec).length, 'API routes declared with endpoint()').to.be.greaterThan(apiRoutes.length * 0.8);
  });

  /** One request; a 5xx, or a foreign caller's 2xx that carries A's private data, is recorded. */
  async function send(route: FuzzRoute, kind: Kind, path: string, body: RawBody | null, extra: Record<string, string> = {}, note = ''): Promise<number> {
    const headers: Record<string, string> = { 'x-forwarded-for': `198.51.100.${(stats.requests % 250) + 1}`, ...kind.headers(), ...extra };
    if (body) {
      headers['content-type'] ??= body.type ?? 'application/json';
      Object.assign(headers, body.headers ?? {});
      if (!('idempotency-key' in extra)) headers['idempotency-key'] = `fuzz-${stats.requests}`;
    }
    const base = route.internal ? internalUrl : app.url;
    let status: number;
    let text: string;
    const sent = performance.now();
    try {
      const res = await fetch(base + path, {
        method: route.method,
        headers,
        redirect: 'manual',
        signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
        ...(body ? { body: body.text } : {}),
      });
      status = res.status;
      text = await res.text();
    } catch (err) {
      // No answer (the connection dropped, or nothing within ANSWER_WITHIN_MS): a failure like a 5xx.
      status = 599;
      text = String(err);
    }
    const ms = performance.now() - sent;
    stats.requests++;
    stats.byStatus.set(status, (stats.byStatus.get(status) ?? 0) + 1);
    if (process.env.FUZZ_LOG)
      log.push(
        [`${route.method} ${route.path}`, kind.name, note, status, /"code":"([a-z_]+)"|"error":"([a-z_]+)"/.exec(text)?.slice(1).find(Boolean) ?? ''].join(
          '\t',
        ),
      );
    const what = `${route.method} ${path.slice(0, 160)} as ${kind.name}${note ? ` [${note}]` : ''}${body ? ` body ${body.text.slice(0, 100)}` : ''}`;
    if (ms > stats.slowest.ms) stats.slowest = { ms, what: what.slice(0, 200) };
    if (status >= 500) failures.push(`${status} ${what}: ${text.slice(0, 300)}`);
    if (status >= 200 && status < 300 && kind.tenant !== 'a') {
      const lower = text.toLowerCase();
      const leaked = a.canaries.filter((c) => lower.includes(c));
      if (leaked.length > 0) failures.push(`cross-tenant ${status} ${what}: carries store A's ${leaked.join(', ')}`);
    }
    return status;
  }

  /** The path with store A's best value for each parameter (or `pick` for one of them). */
  const pathFor = (route: FuzzRoute, seed: Seed, pick: Record<string, string> = {}, n = 0) => {
    const values: Record<string, string> = {};
    for (const p of paramsOf(route.path)) values[p.name] = pick[p.name] ?? seed.valueFor(p, n);
    return fillPath(route.path, values);
  };

  /** A body the route's schema would likely take, with store A's ids where its fields name them. */
  type Mode = 'minimal' | 'full';
  const sampleBody = (route: FuzzRoute, seed: Seed, mode: Mode = 'minimal'): { schema: ReturnType<typeof jsonSchemaOf>; value: unknown } => {
    const schema = route.spec && route.spec.body !== 'multipart' ? jsonSchemaOf(route.spec.body) : null;
    return { schema, value: schema ? sampleOf(schema, '', seed.hint, 0, mode) : {} };
  };
  const sampleQuery = (route: FuzzRoute, seed: Seed, mode: Mode = 'minimal'): { schema: ReturnType<typeof jsonSchemaOf>; value: Record<string, string> } => {
    const schema = route.spec ? jsonSchemaOf(route.spec.query) : null;
    const value = (schema ? sampleOf(schema, '', seed.hint, 0, mode === 'full' ? 'full' : 'required') : {}) as Record<string, unknown>;
    return { schema, value: Object.fromEntries(Object.entries(value ?? {}).map(([k, v]) => [k, String(v)])) };
  };
  const withQuery = (path: string, query: Record<string, string>, raw = '') => {
    const qs = [new URLSearchParams(query).toString(), raw].filter(Boolean).join('&');
    return qs ? `${path}?${qs}` : path;
  };
  const hasBody = (route: FuzzRoute) => route.method !== 'GET';
  const baselineBody = (route: FuzzRoute, seed: Seed): RawBody | null =>
    hasBody(route) ? { text: JSON.stringify(sampleBody(route, seed).value ?? {}) } : null;
  const ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
  /** Reads first and deletions last, so the resources the other routes use live as long as they can. */
  const inOrder = () => [...routes].sort((x, y) => ORDER.indexOf(x.method) - ORDER.indexOf(y.method));

  beforeEach(() => {
    failures.length = 0;
  });

  it("answers no caller but store A's own with A's private data, and store B's callers change none of A's documents", async () => {
    stats.started = Date.now();
    const foreign = ['none', 'merchantB', 'merchantB@A', 'appB', 'appB-narrow', 'customerB'].map((k) => kinds.get(k)!);
    const before = await documentsOf(app, a);
    for (const route of inOrder()) {
      // The internal service's secret is no tenant's: its routes get their hostile input below.
      const used = route.internal ? [kinds.get('none')!] : foreign;
      const writes: Kind[] = [];
      // A's best value for each parameter, then each of A's other values that fit one of them, then (per caller) any other of A's ids.
      const params = paramsOf(route.path);
      const paths = [
        pathFor(route, a),
        ...params.flatMap((p) =>
          a
            .candidates(p)
            .slice(1)
            .map((value) => pathFor(route, a, { [p.name]: value })),
        ),
      ];
      for (const [i, kind] of used.entries()) {
        for (const path of params.length > 0 ? [...paths, pathFor(route, a, {}, i + 1)] : paths) {
          const { value: query } = sampleQuery(route, a);
          const status = await send(route, kind, withQuery(path, query), baselineBody(route, a), {}, 'cross-tenant');
          if (status >= 200 && status < 300 && route.method !== 'GET') writes.push(kind);
        }
      }
      // A write that B's caller was allowed (on B's store, or a public route): A's documents are as they were.
      if (writes.some((k) => k.tenant === 'b')) {
        const now = await documentsOf(app, a);
        for (const problem of changedDocuments(before, now))
          failures.push(`${route.method} ${route.path} as ${[...new Set(writes.map((k) => k.name))].join(', ')} changed store A's ${problem}`);
      }
      for (const kind of new Set(writes)) await kind.keepAlive();
    }
    for (const problem of changedDocuments(before, await documentsOf(app, a))) failures.push(`callers other than store A's changed store A's ${problem}`);
    expect(failures, failures.join('\n')).to.deep.equal([]);
  });

  /** Store A's side of the callers an endpoint declares (its `access`); for a route without that declaration, every one. */
  const candidatesFor = (route: FuzzRoute): Kind[] => {
    const named = (...names: string[]) => names.map((k) => kinds.get(k)!);
    if (route.internal) return named('internal', 'none');
    const access = route.spec?.access;
    if (access === undefined) return named('merchantA', 'appA', 'appA-narrow', 'customerA', 'operator', 'partner', 'oauthClient', 'none');
    if (access === 'public') return named('none', 'customerA', 'merchantA');
    if (access === 'merchant') return named('merchantA', 'partner', 'operator');
    if (access === 'operator') return named('operator', 'merchantA');
    if (access === 'customer') return named('customerA', 'merchantA');
    if ('storeFrom' in access) return named('merchantA', 'partner', 'operator');
    if ('app' in access) return named('appA', 'appA-narrow', 'merchantA');
    return access.store.apps ? named('merchantA', 'appA', 'appA-narrow', 'customerA') : named('merchantA', 'appA');
  };

  it('answers every route, whatever the body, query, path or headers and whoever calls, with no 5xx', async () => {
    for (const [r, route] of inOrder().entries()) {
      const candidates = candidatesFor(route);
      const touched = new Set<Kind>();
      const track = (kind: Kind, status: number) => {
        if (status >= 200 && status < 300 && route.method !== 'GET') touched.add(kind);
        return status;
      };
      // Who gets past authentication (then past the access checks, if any does): the hostile input goes to them.
      const answers: [Kind, number][] = [];
      for (const kind of candidates) {
        const { value: query } = sampleQuery(route, a);
        answers.push([kind, track(kind, await send(route, kind, withQuery(pathFor(route, a), query), baselineBody(route, a)))]);
      }
      const allowed = answers.filter(([, s]) => s !== 401 && s !== 403).map(([k]) => k);
      const known = answers.filter(([, s]) => s !== 401).map(([k]) => k);
      const callers = allowed.length > 0 ? allowed : known.length > 0 ? known : candidates;
      const caller = (n: number) => callers[n % callers.length]!;
      let n = 0;
      const path = pathFor(route, a);
      // The hostile values go into the route's own body and query: with every field, when the first caller refused the required ones alone.
      let mode: Mode = 'minimal';
      if (answers.find(([k]) => k === callers[0])?.[1] === 400) {
        const full = await send(
          route,
          callers[0]!,
          withQuery(path, sampleQuery(route, a, 'full').value),
          hasBody(route) ? { text: JSON.stringify(sampleBody(route, a, 'full').value ?? {}) } : null,
          {},
          'every field',
        );
        if (full !== 400) mode = 'full';
      }
      const { value: query, schema: querySchema } = sampleQuery(route, a, mode);
      const body = sampleBody(route, a, mode);
      const bodyText = JSON.stringify(body.value ?? {});
      // Bodies: malformed, deep, of other types; then the route's own body with hostile values in its fields.
      if (hasBody(route)) {
        for (const raw of HOSTILE_BODIES) track(caller(n), await send(route, caller(n++), withQuery(path, query), raw));
        const declared = body.schema !== null;
        const points = declared ? mutationPoints(body.schema) : OAUTH_PARAMETERS.map((name) => [name]);
        const values = [...HOSTILE_VALUES, JSON.stringify(b.anyId(r)), JSON.stringify(a.anyId(r + 1))];
        const at = async (point: string[], value: string) =>
          track(caller(n), await send(route, caller(n++), withQuery(path, query), { text: withValueAt(body.value, point, value) }, {}, point.join('.')));
        // A name of Object.prototype in every field (every one of them where the route reads its own body), then the other hostile values, sampled.
        for (const [i, point] of points.entries()) {
          for (const name of declared ? [PROTOTYPE_NAMES[(i + r) % PROTOTYPE_NAMES.length]!] : PROTOTYPE_NAMES) {
            await at(point, JSON.stringify(name));
            if (!declared)
              track(
                caller(n),
                await send(
                  route,
                  caller(n++),
                  path,
                  { text: `${point[0]}=${encodeURIComponent(name)}`, type: 'application/x-www-form-urlencoded' },
                  {},
                  `form ${point[0]}`,
                ),
              );
          }
        }
        for (let m = 0; m < MUTATIONS_PER_ROUTE && points.length > 0; m++) await at(points[(m + r) % points.length]!, values[(m * 7 + r * 3) % values.length]!);
      }
      // Queries: hostile as a whole, then in each of the route's own parameters.
      for (const raw of HOSTILE_QUERIES)
        track(caller(n), await send(route, caller(n++), withQuery(path, query, raw), hasBody(route) ? { text: bodyText } : null));
      const queryKeys = Object.keys((querySchema as { properties?: object } | null)?.properties ?? {});
      for (let m = 0; m < QUERY_MUTATIONS_PER_ROUTE && queryKeys.length > 0; m++) {
        const key = queryKeys[(m + r) % queryKeys.length]!;
        const value = HOSTILE_QUERY_VALUES[(m * 5 + r) % HOSTILE_QUERY_VALUES.length]!;
        const rest = Object.fromEntries(Object.entries(query).filter(([k]) => k !== key));
        track(
          caller(n),
          await send(route, caller(n++), withQuery(path, rest, `${key}=${value}`), hasBody(route) ? { text: bodyText } : null, {}, `query ${key}`),
        );
      }
      // Path parameters: junk, too long, oddly encoded, B's ids; each parameter in turn.
      for (const p of paramsOf(route.path)) {
        for (const value of [...HOSTILE_PARAMS, b.valueFor(p, 0), b.anyId(r)]) {
          track(
            caller(n),
            await send(
              route,
              caller(n++),
              withQuery(pathFor(route, a, { [p.name]: value }), query),
              hasBody(route) ? { text: bodyText } : null,
              {},
              `param ${p.name}`,
            ),
          );
        }
      }
      // Headers: odd store ids, tokens, keys and addresses, beside the caller's own.
      for (const extra of HOSTILE_HEADERS)
        track(caller(n), await send(route, caller(n++), withQuery(path, query), hasBody(route) ? { text: bodyText } : null, extra, 'headers'));
      for (const kind of touched) await kind.keepAlive();
    }
    const seconds = (Date.now() - stats.started) / 1000;
    console.log(
      `      fuzz: ${routes.length} routes, ${stats.requests} requests in ${seconds.toFixed(0)} s; statuses ${[...stats.byStatus]
        .sort(([x], [y]) => x - y)
        .map(([s, c]) => `${s}×${c}`)
        .join(' ')}; slowest ${stats.slowest.ms.toFixed(0)} ms: ${stats.slowest.what}`,
    );
    expect(failures, failures.join('\n')).to.deep.equal([]);
  });

  it('answers hostile GraphQL documents on every GraphQL route and on bulk operations, from every kind of caller, with no 5xx, while /health answers', async () => {
    const graphqlRoutes = routes.filter((r) => r.method === 'POST' && (r.path.endsWith('/graphql') || /graphql\/(admin|storefront)$/.test(r.path)));
    const bulk = routes.find((r) => r.method === 'POST' && r.path === '/v1/bulk-operations')!;
    expect(graphqlRoutes.length, 'the admin and storefront GraphQL routes').to.be.at.least(2);
    expect(bulk, 'POST /v1/bulk-operations').to.not.equal(undefined);
    const gids = [
      ...a.candidates({ name: 'collection_id', after: 'collections', within: '' }).map((id) => `gid://emporium/Collection/${id}`),
      ...a.candidates({ name: 'product_id', after: 'products', within: '' }).map((id) => `gid://emporium/Product/${id}`),
    ];
    const callers = ['none', 'merchantA', 'appA', 'appA-narrow', 'customerA', 'merchantB@A', 'appB'].map((k) => kinds.get(k)!);
    // /health is asked all the while: it must answer (its p99 beside the hostile documents is bench:graphql-hostile's figure, not a test's).
    let hostileDone = false;
    const probes = { answered: 0, failed: [] as string[] };
    const probing = (async () => {
      while (!hostileDone) {
        try {
          const res = await fetch(`${app.url}/health`, { signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
          if (res.status === 200) probes.answered++;
          else probes.failed.push(`/health ${res.status}`);
          await res.arrayBuffer();
        } catch (err) {
          probes.failed.push(`/health: ${String(err)}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    try {
      for (const route of graphqlRoutes) {
        const admin = route.path.includes('admin');
        const headers: Record<string, string> = admin ? {} : { 'x-store-subdomain': a.shop.store.subdomain };
        for (const [i, document] of hostileGraphqlBodies(admin ? 'admin' : 'storefront', gids).entries())
          for (const kind of callers) await send(route, kind, route.path, { text: JSON.stringify(document) }, headers, `hostile graphql ${i}`);
      }
      for (const query of HOSTILE_BULK_QUERIES)
        for (const kind of callers) await send(bulk, kind, bulk.path, { text: JSON.stringify({ query }) }, {}, 'hostile bulk');
    } finally {
      hostileDone = true;
      await probing;
    }
    expect(failures, failures.join('\n')).to.deep.equal([]);
    expect(probes.failed, probes.failed.join('\n')).to.deep.equal([]);
    expect(probes.answered).to.be.greaterThan(0);
  });
});

/** A kind of caller: its headers, which store's it is, and how it stays signed in when a route (sign-out, uninstall) ended it. */
type Kind = { name: string; tenant: 'a' | 'b' | null; headers(): Record<string, string>; keepAlive(): Promise<void> };

/** A store with one of everything, and store-private text (canaries) in the fields its owner alone may read. */
type Seed = {
  shop: GivenMerchantWithStore;
  canaries: string[];
  /** The values that fit a path parameter (by its name, or the segment before it), best first; else all the store's ids. */
  candidates(param: { name: string; after: string; within: string }): string[];
  /** The value for a path parameter: its best match (`n` = 0), or another of the store's values. */
  valueFor(param: { name: string; after: string; within: string }, n: number): string;
  /** A body field's value from its name (`variant_id` → the store's variant); never a canary. */
  hint(field: string): string | undefined;
  anyId(n: number): string;
  app: { full: string; narrow: string };
  customer: { email: string; password: string; token: string; cart: string };
};

/**
 * One store with one of everything: products (one a draft), a collection, a gift card, a coupon,
 * a location and stock, a customer with an address and an order, a review, a webhook
 * subscription, a media file, a form submission, a storefront account with an address, a cart
 * and an order, a theme (private, installed) and one under review, and the two apps installed
 * (one with every scope, one with read_orders alone) with a app rating. Each value is filed
 * under the names a path parameter or a body field may call it by (`products`, `product_id`).
 */
async function seedStore(api: Client, url: string, label: string, apps: { full: GivenApp; narrow: GivenApp }): Promise<Seed> {
  const canary = (what: string) => `canary${label}${what}${randomBytes(5).toString('hex')}`;
  const canaries: string[] = [];
  const secret = (what: string) => {
    const c = canary(what);
    canaries.push(c);
    return c;
  };
  const shop = await givenMerchantWithStore(api);
  const as = shop.as;
  const values = new Map<string, string[]>();
  const ids: string[] = [];
  const add = (keys: string[], value: string) => {
    for (const key of keys) values.set(key, [...(values.get(key) ?? []), value]);
    if (/^[0-9a-f]{24}$/.test(value)) ids.push(value);
  };
  const ok = async <T = any>(what: string, reply: Promise<{ status: number; body: any }>): Promise<T> => {
    const res = await reply;
    expect(res.status, `${label}: ${what}: ${JSON.stringify(res.body)}`).to.be.within(200, 299);
    return res.body?.data as T;
  };
  const sub = shop.store.subdomain;
  add(['stores', 'store_id'], shop.store.id);
  add(['subdomain'], sub);

  const location = await ok('location', api.post('/v1/inventory/locations', { name: secret('location') }, as));
  add(['locations', 'location_id'], location.id);
  const hook = await ok(
    'webhook subscription',
    api.post('/v1/operations/webhook-subscriptions', { target_url: `http://127.0.0.1:9/${secret('hook')}`, event_types: ['order.created'] }, as),
  );
  add(['webhook-subscriptions'], hook.id);
  // Active, so public on the storefront: only its SKU is the merchant's alone.
  const product = await ok(
    'product',
    api.post('/v1/products', { title: `Fuzz tee ${label}`, status: 'active', variants: [{ price: 1000, sku: secret('sku') }] }, as),
  );
  add(['products', 'product_id', 'wishlist'], product.id);
  add(['variant_id', 'variants'], product.variants[0].id);
  add(['handle', 'products/:handle'], product.handle);
  await ok('stock', api.post('/v1/inventory/levels/set', { variant_id: product.variants[0].id, location_id: location.id, available: 1000 }, as));
  const draft = await ok('draft product', api.post('/v1/products', { title: secret('draft'), status: 'draft', variants: [{ price: 500 }] }, as));
  add(['products'], draft.id);
  const collection = await ok(
    'collection',
    api.post('/v1/products/collections', { type: 'manual', title: `Fuzz picks ${label}`, product_ids: [product.id] }, as),
  );
  add(['collections', 'collection_id'], collection.id);
  add(['collections/:handle'], collection.handle);
  const gift = await ok('gift card', api.post('/v1/products/gift-cards', { initial_value: 1000, note: secret('giftnote') }, as));
  add(['gift-cards', 'gift_card_id'], gift.id);
  const coupon = await ok('coupon', api.post('/v1/coupons', { code: secret('coupon'), type: 'percentage', value: 10 }, as));
  add(['coupons', 'coupon_id'], coupon.id);
  const customer = await ok(
    'customer',
    api.post('/v1/customers', { email: `${secret('customer')}@example.com`, note: secret('note'), phone: '+33123456789' }, as),
  );
  add(['customers', 'customer_id'], customer.id);
  const address = await ok(
    'address',
    api.post(`/v1/customers/${customer.id}/addresses`, { address1: secret('address'), city: 'Paris', country_code: 'FR' }, as),
  );
  add(['addresses', 'addressId'], address.id);
  const order = await ok(
    'order',
    api.post(
      '/v1/orders',
      {
        customer_id: customer.id,
        line_items: [{ variant_id: product.variants[0].id, quantity: 1 }],
        financial_status: 'paid',
        shipping_address: { address1: secret('shipping'), city: 'Paris', country_code: 'FR' },
      },
      as,
    ),
  );
  add(['orders', 'order_id'], order.id);
  const review = await ok('review', api.post('/v1/reviews', { product_id: product.id, author_name: 'Fuzz', rating: 4, body: secret('review') }, as));
  add(['reviews'], review.id);
  await ok(
    'sandbox payments',
    api.put('/v1/payments/providers/sandbox', { enabled: true, credentials: { key_secret: `fuzz_${randomBytes(12).toString('hex')}` } }, as),
  );
  await ok('tax rates', api.put('/v1/taxes', { rates: [{ country_code: 'FR', name: 'TVA', rate_bps: 2000 }] }, as));
  add(['provider'], 'sandbox');
  add(['provider'], 'manual');
  add(['provider'], 'stripe');

  const form = new FormData();
  form.append('file', new Blob([png(2, 2)], { type: 'image/png' }), 'fuzz.png');
  form.append('alt', secret('media'));
  const media = await ok(
    'media',
    fetch(`${url}/v1/media`, { method: 'POST', headers: { authorization: `Bearer ${as.token}`, 'x-store-id': as.storeId }, body: form }).then(async (res) => ({
      status: res.status,
      body: (await res.json()) as any,
    })),
  );
  add(['media', 'media_id', 'media_ids'], media.id);
  // Its signed URL: the key, and the query that signs it.
  const signed = new URL(String(media.url), url);
  add(['files', 'key'], signed.pathname.split('/').at(-1)!);
  for (const [name, value] of signed.searchParams) add([name], value);

  await ok(
    'form submission',
    api.post(
      `/v1/storefront/${sub}/forms/contact`,
      { fields: { email: `${secret('form')}@example.com`, message: 'Hello' } },
      { headers: { 'x-forwarded-for': '203.0.113.9' } },
    ),
  );
  add(['form'], 'contact');

  // A storefront account with an address, a cart, and an order of its own.
  const email = `${secret('account')}@example.com`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  await ok('account', api.post('/v1/storefront/customer/signup', { subdomain: sub, email, password }));
  const login = await ok('login', api.post('/v1/storefront/customer/login', { subdomain: sub, email, password }));
  const accountAddress = await ok(
    'account address',
    api.post('/v1/storefront/customer/addresses', { address1: secret('accountaddress'), city: 'Lyon', country_code: 'FR' }, { token: login.token }),
  );
  add(['customer/addresses', 'addresses'], accountAddress.id);
  add(['customer/wishlist'], product.id);
  const cart = async () =>
    (await ok('cart', api.post(`/v1/storefront/${sub}/cart`, { lines: [{ variant_id: product.variants[0].id, quantity: 1 }] }))).token as string;
  const bought = await ok(
    'storefront order',
    api.post(`/v1/storefront/${sub}/orders`, { email }, { token: login.token, headers: { 'x-cart-token': await cart(), 'idempotency-key': `seed-${label}` } }),
  );
  add(['customer/orders', 'orders', 'order_id'], bought.id);

  // Themes: a private one installed in the store, and one waiting for review.
  const bundle = bundleOf('aurora');
  const upload = await ok(
    'theme upload',
    api.post('/v1/themes/packages/upload', { bundle, submission_mode: 'private_install' }, { token: shop.merchant.token }),
  );
  add(['slug', 'themes'], bundle.package.slug);
  collectIds(upload, (id) => add(['version'], id));
  const installed = await ok(
    'theme install',
    api.post(`/v1/themes/${bundle.package.slug}/install`, { store_id: shop.store.id }, { token: shop.merchant.token }),
  );
  add(['installed', 'theme_id'], installed.id);
  collectIds(installed, (id) => add(['version'], id));
  add(['number'], '1');
  add(['template'], 'home');
  add(['template'], 'product');
  add(['path'], 'assets/base.css');
  const marketplace = await ok('theme for review', api.post('/v1/themes/packages/upload', { bundle: bundleOf('aurora') }, { token: shop.merchant.token }));
  add(['theme-reviews'], marketplace.review_record.id);

  // The apps: each installed, reviewed in the catalog.
  const full = await installApp(api, apps.full, shop, { scopes: [...SCOPE_NAMES] });
  const narrow = await installApp(api, apps.narrow, shop, { scopes: ['read_orders'] });
  add(['installations'], full.installationId);
  add(['installations'], narrow.installationId);
  await ok('app metadata', api.put('/v1/app/installation/metadata', { metadata: { note: secret('metadata') } }, { token: full.token }));
  const appReview = await ok(
    'app review',
    api.post(`/v1/app-store/apps/${apps.full.app.id}/reviews`, { store_id: shop.store.id, rating: 4, body: 'Useful' }, { token: shop.merchant.token }),
  );
  add(['reviewId'], appReview.id);
  add(['apps', 'app_id'], apps.full.app.id);
  add(['apps'], apps.narrow.app.id);
  add(['app-reviews', 'versionId'], apps.full.app.latest_version.id);
  add(['client_id'], apps.full.credentials.oauth_client_id);
  add(['redirect_uri'], apps.full.app.published.redirect_urls[0]);
  const deliveries = await ok<any[]>('webhook deliveries', api.get('/v1/operations/webhook-deliveries', as));
  for (const d of deliveries) add(['webhook-deliveries', 'deliveryId'], d.id);

  const pool = (key: string) => values.get(key) ?? [];
  const candidates = (param: { name: string; after: string; within: string }) => {
    const exact = [...new Set([...pool(param.within), ...pool(`${param.after}/:${param.name}`), ...pool(param.name), ...pool(param.after)])];
    return exact.length > 0 ? exact : ids;
  };
  return {
    shop,
    canaries: canaries.map((c) => c.toLowerCase()),
    candidates,
    valueFor(param, n) {
      const fit = candidates(param);
      return n === 0 ? fit[0]! : [...fit, ...ids][n % (fit.length + ids.length)]!;
    },
    hint: (field) => pool(field)[0] ?? (/_ids$/.test(field) ? pool(field.slice(0, -1))[0] : undefined),
    anyId: (n) => ids[n % ids.length]!,
    app: { full: full.token, narrow: narrow.token },
    customer: { email, password, token: login.token, cart: await cart() },
  };
}

/** Every 24-hex id in a response, for the parameters no name matches. */
function collectIds(value: unknown, found: (id: string) => void): void {
  for (const m of JSON.stringify(value ?? null).matchAll(/"([0-9a-f]{24})"/g)) found(m[1]!);
}

/**
 * The callers: nobody; each store's merchant (B's also naming A's store); each store's two apps
 * (every scope, and read_orders alone); each store's storefront customer with its cart; an
 * operator; the internal service's secret. Each can sign in again after a route ended its session.
 */
function credentialKinds(api: Client, a: Seed, b: Seed, apps: { full: GivenApp; narrow: GivenApp }, operator: GivenMerchant): Map<string, Kind> {
  let renewals = 0;
  const from = () => ({ headers: { 'x-forwarded-for': `203.0.113.${(renewals++ % 250) + 1}` } });
  const merchant = (name: string, tenant: 'a' | 'b' | null, who: { email: string; password: string; token: string }, storeId: string | null): Kind => ({
    name,
    tenant,
    headers: () => ({ authorization: `Bearer ${who.token}`, ...(storeId ? { 'x-store-id': storeId } : {}) }),
    async keepAlive() {
      if ((await api.get('/v1/auth/custom/session', { token: who.token })).status === 200) return;
      const signin = await api.post('/v1/auth/signin', { email: who.email, password: who.password }, from());
      expect(signin.status, `${name} signs in again: ${JSON.stringify(signin.body)}`).to.equal(200);
      who.token = signin.body.data.session.token;
    },
  });
  const app = (name: string, tenant: 'a' | 'b', seed: Seed, which: 'full' | 'narrow'): Kind => ({
    name,
    tenant,
    headers: () => ({ authorization: `Bearer ${seed.app[which]}` }),
    async keepAlive() {
      if ((await api.get('/v1/app/installation/metadata', { token: seed.app[which] })).status === 200) return;
      seed.app[which] = (await installApp(api, apps[which], seed.shop, { scopes: which === 'full' ? [...SCOPE_NAMES] : ['read_orders'] })).token;
    },
  });
  const customer = (name: string, tenant: 'a' | 'b', seed: Seed): Kind => ({
    name,
    tenant,
    headers: () => ({ authorization: `Bearer ${seed.customer.token}`, 'x-cart-token': seed.customer.cart }),
    async keepAlive() {
      if ((await api.get('/v1/storefront/customer/me', { token: seed.customer.token })).status === 200) return;
      const login = await api.post(
        '/v1/storefront/customer/login',
        { subdomain: seed.shop.store.subdomain, email: seed.customer.email, password: seed.customer.password },
        from(),
      );
      expect(login.status, `${name} logs in again: ${JSON.stringify(login.body)}`).to.equal(200);
      seed.customer.token = login.body.data.token;
    },
  });
  const list: Kind[] = [
    { name: 'none', tenant: null, headers: () => ({}), keepAlive: async () => {} },
    merchant('merchantA', 'a', a.shop.merchant, a.shop.store.id),
    merchant('merchantB', 'b', b.shop.merchant, b.shop.store.id),
    merchant('merchantB@A', 'b', b.shop.merchant, a.shop.store.id),
    app('appA', 'a', a, 'full'),
    app('appA-narrow', 'a', a, 'narrow'),
    app('appB', 'b', b, 'full'),
    app('appB-narrow', 'b', b, 'narrow'),
    customer('customerA', 'a', a),
    customer('customerB', 'b', b),
    merchant('operator', null, operator, null),
    merchant('partner', null, apps.full.developer.merchant, null),
    {
      name: 'oauthClient',
      tenant: null,
      headers: () => ({
        authorization: `Basic ${Buffer.from(`${apps.full.credentials.oauth_client_id}:${apps.full.credentials.client_secret}`).toString('base64')}`,
      }),
      keepAlive: async () => {},
    },
    { name: 'internal', tenant: null, headers: () => ({ 'x-platform-internal-secret': INTERNAL_SECRET }), keepAlive: async () => {} },
  ];
  return new Map(list.map((k) => [k.name, k]));
}

/** Every document of store A (its store document, and each one with its `store_id`), as JSON by collection and id. */
async function documentsOf(app: TestApp, seed: Seed): Promise<Map<string, string>> {
  const id = new ObjectId(seed.shop.store.id);
  const out = new Map<string, string>();
  for (const { name } of await app.platform.db.listCollections({}, { nameOnly: true }).toArray()) {
    if (name === 'agendaJobs' || name === 'events') continue;
    const docs = await app.platform.db
      .collection(name)
      .find(name === 'stores' ? { _id: id } : { $or: [{ store_id: id }, { store_id: seed.shop.store.id }] })
      .toArray();
    for (const doc of docs) out.set(`${name} ${String(doc._id)}`, createHash('sha256').update(JSON.stringify(doc)).digest('hex'));
  }
  return out;
}

/** The documents that were there before and are now gone or different. */
function changedDocuments(before: Map<string, string>, now: Map<string, string>): string[] {
  return [...before].flatMap(([key, hash]) => (now.get(key) === hash ? [] : [`${key} (${now.has(key) ? 'changed' : 'deleted'})`]));
}
