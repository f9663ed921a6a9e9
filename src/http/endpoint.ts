import Router, { type RouterContext, type RouterMiddleware } from '@koa/router';
import type { Middleware, Next } from 'koa';
import { z } from 'zod';
import type { Platform } from '../platform.js';
import { accessibleStore, requireOperator, requirePrincipal, requireStore } from './auth.js';
import { storeBudget } from './budget.js';
import { respondCacheable } from './caching.js';
import type { AppContext, AppCustom, AppPrincipal, AppRouter, AppState, CustomerPrincipal, MerchantPrincipal, ScopedStore } from './context.js';
import type { PathParams } from './path-params.js';
import { idempotent } from './idempotency/index.js';
import { parseInput } from './validate.js';

/**
 * Who may call an endpoint:
 * - `'public'`: anyone (the handler sees no principal);
 * - `'merchant'`: a merchant session, acting on no particular store;
 * - `'operator'`: a merchant session of an account with the operator role (403 `operator_required` for other merchants);
 * - `storeScoped(scope)`: a store-scoped admin endpoint: a merchant with an `X-Store-Id` it
 *   owns, or an app installed in the store whose token was granted `scope` (unless
 *   `{ apps: false }`: merchants only). `scope: null` needs no particular scope. Each request
 *   spends one point of the caller's leaky bucket on the store (src/http/budget.ts).
 * - `'customer'`: a storefront customer's session (never a merchant's or an app's token), acting
 *   on the one store the customer has an account in (the principal's `storeId`).
 * - `{ storeFrom: 'body' }`: a merchant session acting on the store its body names (`store_id`,
 *   after the body is checked): one the merchant owns, else 403 `store_forbidden` (installing an
 *   app or a theme, a compliance request). No `X-Store-Id` and no request budget.
 */
export type EndpointAccess = 'public' | 'merchant' | 'operator' | 'customer' | StoreScoped | AppScoped | StoreInBody;
/** A merchant on the store named by the body's `store_id` (see EndpointAccess). */
export type StoreInBody = { storeFrom: 'body' };
/** `/v1/app/…`: an installed app's access token only (never a merchant session), on the token's store, with `scope` (null: any). */
export type AppScoped = { app: { scope: string | null } };

export function appScoped(scope: string | null): AppScoped {
  return { app: { scope } };
}
export type StoreScoped<Apps extends boolean = boolean> = { store: { scope: string | null; apps: Apps } };

export function storeScoped(scope: string | null): StoreScoped<true>;
export function storeScoped(scope: string | null, options: { apps: false }): StoreScoped<false>;
export function storeScoped(scope: string | null, options: { apps?: boolean } = {}): StoreScoped {
  return { store: { scope, apps: options.apps ?? true } };
}

/** An empty object, strictly: the default query and body of an endpoint that declares none. */
export const Empty = z.strictObject({});

type Caller<A extends EndpointAccess> = A extends 'public'
  ? object
  : A extends 'merchant' | 'operator'
    ? { merchant: MerchantPrincipal }
    : A extends 'customer'
      ? { customer: CustomerPrincipal }
      : A extends StoreInBody
        ? { merchant: MerchantPrincipal; store: ScopedStore }
        : A extends AppScoped
          ? { principal: AppPrincipal; store: ScopedStore }
          : A extends StoreScoped<false>
            ? { principal: MerchantPrincipal; store: ScopedStore }
            : { principal: MerchantPrincipal | AppPrincipal; store: ScopedStore };

export type EndpointRequest<A extends EndpointAccess, Q, B, P = Record<string, string>> = {
  ctx: RouterContext<AppState, AppCustom>;
  /**
   * The path's parameters: as given (an id that is malformed is simply not found, 404, in the
   * service), typed by the route's path (`'/:id/addresses/:addressId'` gives `{ id, addressId }`);
   * or parsed by the endpoint's `params` schema.
   */
  params: P;
  query: Q;
  body: B;
} & Caller<A>;

type Respond = 'data' | 'page' | 'empty' | 'raw';
type Output<R extends Respond, T> = R extends 'page'
  ? { items: readonly T[]; nextCursor: string | null }
  : R extends 'data'
    ? T
    : R extends 'empty'
      ? void
      : unknown;

export type EndpointSpec<
  A extends EndpointAccess,
  QS extends z.ZodType,
  BS extends z.ZodType | 'multipart',
  R extends Respond,
  PS extends z.ZodType | undefined,
> = {
  access: A;
  /**
   * The path parameters' schema, when they are more than ids (`params.…` in errors); it may
   * also read the parameters of the path the router is mounted at (`/v1/storefront/:subdomain/…`).
   */
  params?: PS;
  /** The query's schema; default: no query parameters at all (strict). */
  query?: QS;
  /**
   * The body's schema; default: an empty object at most (strict). `'multipart'`: the endpoint
   * reads `multipart/form-data` itself (readMultipart), after authentication; the app's JSON
   * parser leaves it unread.
   */
  body?: BS;
  /** A larger JSON body limit than BODY_LIMIT_BYTES for this route (theme bundle uploads). */
  bodyLimitBytes?: number;
  /**
   * Honour an `Idempotency-Key` (after authentication, before the input is checked): a retry
   * gets the first answer again, and only the caller that made the first request does
   * (docs/conventions.md, Idempotency). `true` scopes the key by the principal. A public route
   * has none, so it names the credential that proves the caller's right to the answer instead
   * (`{ scope }`, e.g. a hash of the cart token); a request that presents none is never
   * replayed: it runs again.
   */
  idempotent?: A extends 'public' ? PublicIdempotency : boolean;
  /** The success status; default 200 (204 for `respond: 'empty'`). */
  status?: number;
  /**
   * How the handler's result is answered: `data` (default) `{ data }`; `page` a list
   * `{ data: items, page: { next_cursor } }` from the `{ items, nextCursor }` of src/pagination.ts;
   * `empty` 204 with no body; `raw` the handler sets `ctx` itself.
   */
  respond?: R;
  /**
   * The answer's caching (for `data` and `page`): `public`, a read that is the same for every caller
   * (a storefront's catalog), answered with `Cache-Control: public, max-age=30` and a weak ETag,
   * 304 to an `If-None-Match` that names it (src/http/caching.ts); `no-store`, an answer private to
   * whoever holds its credential (a cart), errors included. Default: no Cache-Control header.
   */
  cache?: R extends 'data' | 'page' ? 'public' | 'no-store' : never;
};

/** Marks the middleware of an endpoint that takes `multipart/form-data` (see http/body.ts). */
export const TAKES_MULTIPART = Symbol('takes multipart/form-data');
/** Marks a route's middleware that takes `application/x-www-form-urlencoded` (the OAuth token endpoints; see http/body.ts). */
export const TAKES_FORM = Symbol('takes application/x-www-form-urlencoded');
/** Marks a page's form post, whose body the page reads itself (see http/body.ts). */
export const PAGE_FORM = Symbol('a page reading its own form');

/** Marks a route whose JSON body may be larger than BODY_LIMIT_BYTES: the value is its limit (see http/body.ts). */
export const BODY_LIMIT = Symbol('body limit in bytes');

/**
 * An endpoint's middleware carries what it takes, for whoever reads the routers' layers: who may
 * call it and its input schemas (test/platform/fuzz-routes.test.ts builds its requests from them).
 */
export const ENDPOINT_SPEC = Symbol('endpoint spec');
export type DeclaredEndpoint = { access: EndpointAccess; params?: z.ZodType; query: z.ZodType; body: z.ZodType | 'multipart' };

/** Declare that `middleware` (a route's handler) takes form bodies besides JSON. */
export function takesForm<M extends object>(middleware: M): M {
  (middleware as { [TAKES_FORM]?: true })[TAKES_FORM] = true;
  return middleware;
}

/**
 * Declare that `middleware` is a page's form post (sign-in, consent, the console) that reads its
 * own body with `readForm` (http/browser.ts): the app's body readers leave it unread, so a body of
 * another type, too large or malformed is refused inside the page, as an HTML page with its
 * status, never the API's JSON envelope.
 */
export function pageForm<M extends object>(middleware: M): M {
  (middleware as { [PAGE_FORM]?: true })[PAGE_FORM] = true;
  return middleware;
}

/**
 * How a public route's Idempotency-Key is scoped: `scope(ctx)` derives, from the credentials the
 * request presents (never from its address), a string that only a caller holding them can
 * produce (hash secrets: it is hashed again into the record's id, and nothing is kept in
 * clear); null when the request presents none.
 */
export type PublicIdempotency = { scope: (ctx: AppContext) => string | null };

/** The body an endpoint hands its handler: its schema's output (none without one). */
export type BodyOf<BS> = BS extends z.ZodType ? z.infer<BS> : undefined;
/** The handler's `params`: what the `params` schema gives, else the route path's parameters (`P`, read from the path). */
type ParamsOf<PS, P> = PS extends z.ZodType ? z.infer<PS> : P;

/** The spec's check that a `{ storeFrom: 'body' }` endpoint's body names the store (`store_id`). */
type BodyNamesStore<A> = A extends StoreInBody ? { body: z.ZodType<{ store_id: string }> } : unknown;
/** An endpoint's handler: the parsed input and the caller, typed, in; the result its `respond` answers with, out. */
type Handler<A extends EndpointAccess, QS extends z.ZodType, BS, R extends Respond, T, PS, P> = (
  request: EndpointRequest<A, z.infer<QS>, BodyOf<BS>, ParamsOf<PS, P>>,
) => Promise<Output<R, T>>;

/**
 * Declares one route: its path, its endpoint's spec (see EndpointSpec) and, last, its handler,
 * whose `params` are typed from the path (`'/:id/addresses/:addressId'` gives
 * `{ id: string; addressId: string }`; a parameter the path does not name does not compile) unless
 * the spec declares a `params` schema.
 */
type DeclareRoute = <
  Path extends string,
  A extends EndpointAccess,
  QS extends z.ZodType = typeof Empty,
  BS extends z.ZodType | 'multipart' = typeof Empty,
  R extends Respond = 'data',
  T = unknown,
  PS extends z.ZodType | undefined = undefined,
>(
  path: Path,
  spec: EndpointSpec<A, QS, BS, R, PS> & BodyNamesStore<A>,
  handler: Handler<A, QS, BS, R, T, PS, PathParams<Path>>,
) => void;

/** A router and one declaring method per HTTP method: `on.get(path, spec, handler)`. */
export type Routes = {
  /** The router the routes go on: what a module mounts (`{ path: '/v1/coupons', router: couponRoutes(platform) }`). */
  router: AppRouter;
  get: DeclareRoute;
  post: DeclareRoute;
  put: DeclareRoute;
  patch: DeclareRoute;
  delete: DeclareRoute;
};

/**
 * A new router whose routes are declared one call each, the handler last:
 *
 *     const on = routes(platform);
 *     on.get('/', { access: storeScoped('read_discounts'), query: ListCouponsQuery, respond: 'page' }, ({ store, query }) => listCoupons(platform, store.id, query));
 *     on.post('/', { access: storeScoped('write_discounts'), body: CreateCouponBody, idempotent: true, status: 201 }, ({ store, body }) =>
 *       createCoupon(platform, store, body),
 *     );
 *     on.get('/:id', { access: storeScoped('read_discounts') }, ({ store, params }) => getCoupon(platform, store.id, params.id));
 *     return on.router;
 *
 * Each is the router's route on that path with `endpoint(platform, spec, handler)` as its middleware.
 */
export function routes(platform: Platform): Routes {
  const router: AppRouter = new Router();
  const declare =
    (method: 'get' | 'post' | 'put' | 'patch' | 'delete'): DeclareRoute =>
    (path, spec, handler) => {
      router[method](path, endpoint(platform, spec, handler));
    };
  return { router, get: declare('get'), post: declare('post'), put: declare('put'), patch: declare('patch'), delete: declare('delete') };
}

/** A spec and a handler as endpoint() takes them, whatever the types their route declared them with. */
type AnySpec = EndpointSpec<EndpointAccess, z.ZodType, z.ZodType | 'multipart', Respond, z.ZodType | undefined>;
type AnyHandler = (request: never) => Promise<unknown>;

/**
 * One endpoint, the middleware of a route declared with `routes()`: its access check, input
 * schemas and response shape in one place. The handler receives the parsed input and its caller
 * and returns the result; the wrapping is done here.
 */
function endpoint(platform: Platform, spec: AnySpec, handler: AnyHandler): RouterMiddleware<AppState, AppCustom> {
  const steps: Middleware<AppState, AppCustom>[] = [];
  const access = spec.access;
  if (access === 'merchant') steps.push(requirePrincipal(platform, ['merchant']));
  else if (access === 'operator') steps.push(requirePrincipal(platform, ['merchant']), requireOperator);
  else if (access === 'customer') steps.push(requirePrincipal(platform, ['customer']));
  else if (access !== 'public' && 'storeFrom' in access) steps.push(requirePrincipal(platform, ['merchant']));
  else if (access !== 'public') {
    const [kinds, scope] =
      'app' in access
        ? [['app'] as const, access.app.scope]
        : [access.store.apps ? (['merchant', 'app'] as const) : (['merchant'] as const), access.store.scope];
    steps.push(requirePrincipal(platform, kinds));
    steps.push(requireStore(platform, { scope }));
    // The caller's leaky bucket on that store (429 rate_limited when the cost is not available); RateLimit-* headers.
    steps.push(storeBudget(platform));
  }
  const idempotency = spec.idempotent as boolean | PublicIdempotency | undefined;
  if (idempotency) steps.push(idempotent(platform, idempotency === true ? null : idempotency.scope));
  const querySchema = spec.query ?? Empty;
  const bodySchema = spec.body ?? Empty;
  const respond = spec.respond ?? 'data';

  const main = async (ctx: RouterContext<AppState, AppCustom>) => {
    const params = spec.params ? parseInput(spec.params, ctx.params, 'params') : ctx.params;
    const query = parseInput(querySchema as z.ZodType, ctx.query, 'query');
    const body = bodySchema === 'multipart' ? undefined : parseInput(bodySchema as z.ZodType, ctx.request.body, 'body');
    const principal = ctx.state.principal;
    const named = typeof access === 'object' && 'storeFrom' in access;
    const request = {
      ctx,
      params,
      query,
      body,
      ...(access === 'merchant' || access === 'operator' ? { merchant: principal } : {}),
      ...(access === 'customer' ? { customer: principal } : {}),
      ...(named ? { merchant: principal, store: await accessibleStore(platform, ctx, principal!, (body as { store_id: string }).store_id) } : {}),
      ...(typeof access === 'object' && !named ? { principal, store: ctx.state.store } : {}),
    } as never;
    // A private answer is never stored, whatever it turns out to be (an error too).
    if (spec.cache === 'no-store') ctx.set('Cache-Control', 'no-store');
    const result = await handler(request);
    if (respond === 'raw') return;
    if (respond === 'empty') {
      ctx.status = spec.status ?? 204;
      return;
    }
    let answer: unknown;
    if (respond === 'page') {
      const { items, nextCursor } = result as { items: unknown[]; nextCursor: string | null };
      answer = { data: items, page: { next_cursor: nextCursor } };
    } else {
      answer = { data: result };
    }
    if (spec.cache === 'public') return respondCacheable(ctx, answer);
    ctx.status = spec.status ?? 200;
    ctx.body = answer;
  };

  // The endpoint ends the chain: its access steps, then its handler (never the next route).
  const run: RouterMiddleware<AppState, AppCustom> & { [TAKES_MULTIPART]?: true; [BODY_LIMIT]?: number; [ENDPOINT_SPEC]?: DeclaredEndpoint } = (ctx) =>
    dispatch(steps, 0, ctx, () => main(ctx));
  run[ENDPOINT_SPEC] = {
    access,
    ...(spec.params ? { params: spec.params } : {}),
    query: querySchema as z.ZodType,
    body: bodySchema as z.ZodType | 'multipart',
  };
  if (bodySchema === 'multipart') run[TAKES_MULTIPART] = true;
  if (spec.bodyLimitBytes !== undefined) run[BODY_LIMIT] = spec.bodyLimitBytes;
  return run;
}

function dispatch(steps: Middleware<AppState, AppCustom>[], i: number, ctx: RouterContext<AppState, AppCustom>, last: Next): Promise<void> {
  const step = steps[i];
  if (!step) return last();
  return Promise.resolve(step(ctx, () => dispatch(steps, i + 1, ctx, last)));
}
