import { z } from 'zod';
import { submitForm, SubmitFormBody, SubmitFormParams } from '../forms/index.js';
import { PlatformError } from '../errors.js';
import { bearerToken, resolvePrincipal } from '../http/auth.js';
import type { AppContext, AppRouter } from '../http/context.js';
import { IdString } from '../ids.js';
import { routes } from '../http/endpoint.js';
import type { ShopperProof } from '../orders/index.js';
import type { Platform } from '../platform.js';
import { hashToken } from '../secrets/index.js';
import { cartConflict, createCart, discardCart, loadPricedCart, updateCart } from './carts.js';
import { checkout } from './checkout.js';
import { checkoutOffer } from './checkout-options.js';
import { createPaymentOrder, simulateSandboxPayment, verifyPayment } from './payments.js';
import { serveProductImage } from './images.js';
import { presentCart, presentCheckoutOffer, presentPublicStore } from './present.js';
import { getPublicProduct, listPublicCollectionProducts, listPublicCollections, listPublicProducts, lookupStore, storefrontStore } from './reads.js';
import {
  CART_TOKEN_HEADER,
  CheckoutBody,
  CheckoutOptionsQuery,
  CreateCartBody,
  ListPublicCollectionsQuery,
  ListPublicProductsQuery,
  LookupQuery,
  UpdateCartBody,
} from './schemas.js';

const access = 'public' as const;
const StoreParams = z.object({ subdomain: z.string().max(255) });
const HandleParams = StoreParams.extend({ handle: z.string().max(255) });
// Any id or name is a 404, not a 400: the handler looks them up.
const ImageParams = StoreParams.extend({ media_id: z.string(), filename: z.string() });

/**
 * The signed-in customer of this store when the request carries `Authorization` (optional on the
 * storefront): their id, or null without one. Any other token (a merchant's, an app's, another
 * store's customer's, a dead one) is 401.
 */
async function signedInCustomer(platform: Platform, ctx: AppContext, storeId: string, refusal: string): Promise<string | null> {
  if (!ctx.get('Authorization')) return null;
  const principal = await resolvePrincipal(platform, ctx);
  if (principal?.kind !== 'customer' || principal.storeId !== storeId) throw new PlatformError('unauthenticated', 'unauthenticated', refusal);
  return principal.customerId;
}

/** /v1/storefront: public reads, carts and form submissions of a store named by its subdomain (docs/storefront.md). */
export function storefrontRoutes(platform: Platform): AppRouter {
  const on = routes(platform);

  on.get('/lookup', { access, query: LookupQuery, cache: 'public' }, ({ query }) => lookupStore(platform, query));
  on.get('/:subdomain', { access, params: StoreParams, cache: 'public' }, async ({ params }) =>
    presentPublicStore(await storefrontStore(platform, params.subdomain)),
  );
  on.get(
    '/:subdomain/products',
    { access, params: StoreParams, query: ListPublicProductsQuery, respond: 'page', cache: 'public' },
    async ({ params, query }) => {
      const store = await storefrontStore(platform, params.subdomain);
      return listPublicProducts(platform, store, query);
    },
  );
  on.get('/:subdomain/products/:handle', { access, params: HandleParams, cache: 'public' }, async ({ params }) => {
    const store = await storefrontStore(platform, params.subdomain);
    return getPublicProduct(platform, store, params.handle);
  });
  on.get(
    '/:subdomain/collections',
    { access, params: StoreParams, query: ListPublicCollectionsQuery, respond: 'page', cache: 'public' },
    async ({ params, query }) => {
      const store = await storefrontStore(platform, params.subdomain);
      return listPublicCollections(platform, store.id, query);
    },
  );
  on.get(
    '/:subdomain/collections/:handle/products',
    { access, params: HandleParams, query: ListPublicProductsQuery, respond: 'page', cache: 'public' },
    async ({ params, query }) => {
      const store = await storefrontStore(platform, params.subdomain);
      return listPublicCollectionProducts(platform, store, params.handle, query);
    },
  );

  // Product images: public, cached for good (docs/storefront.md, Product images).
  on.get('/:subdomain/media/:media_id/:filename', { access, params: ImageParams, respond: 'raw' }, ({ ctx, params }) =>
    serveProductImage(platform, ctx, params),
  );

  // Carts: never cached (private to whoever holds the token).
  const token = (ctx: { get(name: string): string }) => ctx.get(CART_TOKEN_HEADER) || undefined;
  // Not idempotent: the answer holds the new cart's token, and nothing in the request proves a
  // retry comes from the client that made the first cart; a retry makes another cart (docs/conventions.md).
  on.post('/:subdomain/cart', { access, params: StoreParams, body: CreateCartBody, status: 201, cache: 'no-store' }, async ({ params, body }) => {
    const store = await storefrontStore(platform, params.subdomain);
    const { token: cartToken, cart } = await createCart(platform, store, body);
    return { token: cartToken, cart: presentCart(cart) };
  });
  on.get('/:subdomain/cart', { access, params: StoreParams, cache: 'no-store' }, async ({ ctx, params }) => {
    const store = await storefrontStore(platform, params.subdomain);
    return presentCart(await loadPricedCart(platform, store, token(ctx)));
  });
  on.patch('/:subdomain/cart', { access, params: StoreParams, body: UpdateCartBody, respond: 'raw' }, async ({ ctx, params, body }) => {
    const store = await storefrontStore(platform, params.subdomain);
    const { version, ...changes } = body;
    const result = await updateCart(platform, store, token(ctx), version, changes);
    ctx.set('Cache-Control', 'no-store');
    if (result.outcome === 'conflict') {
      const err = cartConflict();
      ctx.status = 409;
      ctx.body = { error: { code: err.code, message: err.message, request_id: ctx.state.requestId }, data: presentCart(result.cart) };
      return;
    }
    ctx.status = 200;
    ctx.body = { data: presentCart(result.cart) };
  });
  on.delete('/:subdomain/cart', { access, params: StoreParams, respond: 'empty' }, async ({ ctx, params }) => {
    const store = await storefrontStore(platform, params.subdomain);
    await discardCart(platform, store.id, token(ctx));
  });

  // What a checkout of the cart offers (shipping options, payment methods) after the store's Checkout Functions advised.
  on.get(
    '/:subdomain/cart/checkout-options',
    { access, params: StoreParams, query: CheckoutOptionsQuery, cache: 'no-store' },
    async ({ ctx, params, query }) => {
      const store = await storefrontStore(platform, params.subdomain);
      const customerId = await signedInCustomer(platform, ctx, store.id, 'Ask as a guest (no Authorization) or with a customer token of this store');
      const cart = await loadPricedCart(platform, store, token(ctx));
      const destination = query.country_code ? { country_code: query.country_code, province_code: query.province_code ?? null } : null;
      return presentCheckoutOffer(await checkoutOffer(platform, store, cart, destination, customerId));
    },
  );

  // Checkout: the cart (X-Cart-Token) becomes an order; an Idempotency-Key is required. A replay
  // goes only to a request with the same cart token and the same Authorization (if any).
  const checkoutCaller = (ctx: AppContext) => {
    const cartToken = token(ctx);
    if (!cartToken) return null;
    const bearer = bearerToken(ctx.get('Authorization'));
    return `cart:${hashToken(cartToken)}${bearer ? `|bearer:${hashToken(bearer)}` : ''}`;
  };
  on.post(
    '/:subdomain/orders',
    { access, params: StoreParams, body: CheckoutBody, idempotent: { scope: checkoutCaller }, respond: 'raw' },
    async ({ ctx, params, body }) => {
      const store = await storefrontStore(platform, params.subdomain);
      const customerId = await signedInCustomer(platform, ctx, store.id, 'Check out as a guest (no Authorization) or with a customer token of this store');
      const result = await checkout(platform, store, token(ctx), ctx.get('Idempotency-Key') || undefined, body, customerId);
      ctx.set('Cache-Control', 'no-store');
      ctx.status = result.created ? 201 : 200;
      ctx.body = { data: { ...result.order, payment_secret: result.payment_secret } };
    },
  );

  // Payments (docs/storefront.md, Payments): the provider-side order, the provider's signed payment,
  // the sandbox's checkout; each for the order's shopper only (its payment secret, or its customer's session).
  const PaymentSecret = z.string().min(1).max(200).optional();
  const OrderRef = z.strictObject({ order_id: IdString('order'), payment_secret: PaymentSecret });
  const Verify = z.strictObject({
    order_id: IdString('order'),
    payment_secret: PaymentSecret,
    provider_order_id: z.string().min(1).max(200),
    provider_payment_id: z.string().min(1).max(200),
    signature: z.string().min(1).max(200),
  });
  const Simulate = z.strictObject({ provider_order_id: z.string().min(1).max(200), payment_secret: PaymentSecret });
  const PaymentParams = z.object({ subdomain: z.string().min(1).max(63), provider: z.string().min(1).max(40) });
  const shopper = async (ctx: AppContext, storeId: string, secret: string | undefined): Promise<ShopperProof> => {
    const customerId = await signedInCustomer(platform, ctx, storeId, "Pay with the order's payment_secret, or with a customer token of this store");
    if (secret === undefined && customerId === null) {
      throw new PlatformError(
        'unauthenticated',
        'payment_secret_required',
        "Send the order's payment_secret (from the checkout answer), or pay signed in as the customer the order is for",
      );
    }
    return { secret: secret ?? null, customerId };
  };
  on.post('/:subdomain/payments/sandbox/simulate', { access, params: StoreParams, body: Simulate }, async ({ ctx, params, body }) => {
    const store = await storefrontStore(platform, params.subdomain);
    return simulateSandboxPayment(platform, store, body.provider_order_id, await shopper(ctx, store.id, body.payment_secret));
  });
  on.post('/:subdomain/payments/:provider/order', { access, params: PaymentParams, body: OrderRef, status: 201 }, async ({ ctx, params, body }) => {
    const store = await storefrontStore(platform, params.subdomain);
    return createPaymentOrder(platform, store, params.provider, body.order_id, await shopper(ctx, store.id, body.payment_secret));
  });
  on.post('/:subdomain/payments/:provider/verify', { access, params: PaymentParams, body: Verify }, async ({ ctx, params, body }) => {
    const store = await storefrontStore(platform, params.subdomain);
    const { payment_secret: secret, ...payment } = body;
    return verifyPayment(platform, store, params.provider, payment, await shopper(ctx, store.id, secret));
  });

  on.post('/:subdomain/forms/:form', { access, params: SubmitFormParams, body: SubmitFormBody, status: 202 }, async ({ ctx, params, body }) => {
    await submitForm(platform, { ...params, fields: body.fields, ip: ctx.ip, userAgent: ctx.get('User-Agent') });
    return { accepted: true };
  });
  return on.router;
}
