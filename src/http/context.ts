import type Router from '@koa/router';
import type { ParameterizedContext } from 'koa';
import type { Platform } from '../platform.js';

/**
 * Who is calling. Domains turn a bearer token into one of these (their `Authenticator`s,
 * chosen by the token's prefix); the toolkit only knows the shapes.
 * - a merchant: a signed-in account (session token), acting on the stores it owns;
 * - an app: an app installation's access token, bound to one store and its granted scopes;
 * - a customer: a storefront shopper of one store.
 */
export type MerchantPrincipal = {
  kind: 'merchant';
  merchantId: string;
  sessionId: string;
  /** The account has the operator role (reviews apps and themes; `/v1/operations/…` review routes). */
  operator: boolean;
};
export type AppPrincipal = {
  kind: 'app';
  appId: string;
  installationId: string;
  storeId: string;
  scopes: readonly string[];
  /** An online token's merchant user (token exchange), or null for the installation's offline token. */
  onlineMerchantId: string | null;
};
export type CustomerPrincipal = { kind: 'customer'; customerId: string; storeId: string };
export type Principal = MerchantPrincipal | AppPrincipal | CustomerPrincipal;
export type PrincipalKind = Principal['kind'];

/** The id a principal is known by in keys and logs (`merchant_id`, the installation id, the customer id). */
export function principalKey(principal: Principal): string {
  switch (principal.kind) {
    case 'merchant':
      // Bare, as idempotency keys were stored before apps and customers existed.
      return principal.merchantId;
    case 'app':
      return `app:${principal.installationId}`;
    case 'customer':
      return `customer:${principal.customerId}`;
  }
}

/** The store a request acts on, as the stores domain presents it. */
export type ScopedStore = {
  id: string;
  name: string;
  subdomain: string;
  currency: string;
  locale: string;
  live_theme_id: string | null;
  /** Who the store's emails to its customers come from (docs/stores.md); null: the platform's sender. */
  email_sender: { name: string; email: string } | null;
  created_at: string;
  updated_at: string;
};

/** Turns a bearer token with this prefix into a principal, or null when it is not a live credential. */
export type Authenticator = { prefix: string; authenticate(platform: Platform, token: string): Promise<Principal | null> };

/** The store `storeId` if this principal may act on it (owns it, is installed in it, shops in it), else null. */
export type StoreAccess = (platform: Platform, principal: Principal, storeId: string) => Promise<ScopedStore | null>;

/**
 * One spend from a leaky bucket: `cost` points from the bucket `scope` (`rest-<store id>`,
 * `graphql-<store id>`) in the caller's `account`. The bucket holds at most `capacity` points
 * and refills `restoreRate` points a second; a spend that does not fit now is refused and
 * changes nothing. A REST request costs 1; a GraphQL query its requested query cost.
 */
export type BudgetSpend = { account: string; scope: string; cost: number; capacity: number; restoreRate: number };
/**
 * The bucket after a spend (or after a refused one, as it was): for the RateLimit-* headers
 * and GraphQL's throttleStatus.
 * - `available`: points available now, rounded down to an integer (the bucket itself counts
 *   fractions of a point: it refills continuously);
 * - `fullInSeconds`: seconds until the bucket is full again (0 when it is);
 * - `retryAfterSeconds`: when refused, seconds until `cost` points will be available (at least
 *   1; a cost above the capacity never fits, and gets the time until the bucket is full); 0
 *   when allowed.
 */
export type BudgetState = {
  allowed: boolean;
  capacity: number;
  restoreRate: number;
  available: number;
  fullInSeconds: number;
  retryAfterSeconds: number;
};
/**
 * Spends from a leaky bucket shared by every web process (the ratelimit module's, in the
 * database): a spend that does not fit is refused and costs nothing.
 */
export type RequestBudget = (platform: Platform, spend: BudgetSpend) => Promise<BudgetState>;

/**
 * Hears of each request let into a store-scoped endpoint (its principal passed the endpoint's
 * scope and store checks), before the handler runs, with the scope the endpoint required.
 * Synchronous and cheap: it must neither fail nor slow the request.
 */
export type StoreRequestObserver = (platform: Platform, request: { principal: Principal; store: ScopedStore; scope: string | null }) => void;

/**
 * Decides, before any route runs, whether the web app serves a request from this client address
 * (the security domain: blocked address ranges); it throws the error to answer with. It runs on
 * every request, so it must be cheap (a lookup in memory most of the time).
 */
export type RequestGuard = (platform: Platform, request: { ip: string }) => Promise<void>;

/**
 * Hears of a store-scoped request refused because its caller's request budget is spent (the
 * security domain records it). Synchronous and cheap: it must neither fail nor slow the request.
 */
export type BudgetRefusalObserver = (platform: Platform, refusal: { principal: Principal; store: ScopedStore; ip: string }) => void;

/** How the web app resolves callers: given to createApp by the composition root (src/boot.ts). */
export type Access = {
  authenticators: readonly Authenticator[];
  storeAccess: StoreAccess;
  budget: RequestBudget;
  storeRequestObservers: readonly StoreRequestObserver[];
  requestGuards: readonly RequestGuard[];
  budgetRefusalObservers: readonly BudgetRefusalObserver[];
};

export type AppState = {
  requestId: string;
  /** The authenticated caller (set by the endpoint's access check). */
  principal?: Principal;
  /** The store the request acts on, checked against the principal (store-scoped endpoints). */
  store?: ScopedStore;
};

/** What every request context carries besides its state: how callers are resolved. */
export type AppCustom = { access: Access };

export type AppContext = ParameterizedContext<AppState, AppCustom>;

/** The routers of the app: a @koa/router `Router` of the app's state and context (routes() in endpoint.ts makes one). */
export type AppRouter = Router<AppState, AppCustom>;
