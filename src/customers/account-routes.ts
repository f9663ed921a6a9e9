import { z } from 'zod';
import { PlatformError } from '../errors.js';
import { resolvePrincipal } from '../http/auth.js';
import { clientAddress } from '../http/client-address.js';
import type { AppRouter } from '../http/context.js';
import { routes } from '../http/endpoint.js';
import { IdString } from '../ids.js';
import { PageQuery } from '../pagination.js';
import type { Platform } from '../platform.js';
import { customerSession } from './access.js';
import {
  activateCustomerAccount,
  getAccount,
  type GuestOrderLinks,
  logInCustomer,
  logOutCustomer,
  requestCustomerPasswordReset,
  signUpCustomer,
  updateCustomerPassword,
} from './account.js';
import { changeOwnAddress, createAddress, deleteAddress, getAddress, listAddresses } from './addresses.js';
import {
  AddWishlistItemBody,
  CreateAddressBody,
  CustomerActivateBody,
  CustomerLoginBody,
  CustomerPasswordUpdateBody,
  CustomerResetBody,
  CustomerSignUpBody,
  OwnAddressChangeBody,
} from './schemas.js';
import { addWishlistItem, listWishlist, removeWishlistItem } from './wishlist.js';

const ById = z.strictObject({ id: IdString('address') });
const OwnAddressChangeByIdBody = OwnAddressChangeBody.extend({ id: IdString('address') });

/**
 * /v1/storefront/customer: a shopper's account in one store (docs/customer-accounts.md). Sign-up,
 * login and reset name the store by subdomain; everything else acts on the store of the
 * customer's session token (`emp_cs_…`), which no merchant or app token opens.
 */
export function customerAccountRoutes(platform: Platform, guestOrders: GuestOrderLinks): AppRouter {
  const on = routes(platform);
  const access = 'customer';
  const caller = (ctx: Parameters<typeof clientAddress>[0]) => ({ ip: clientAddress(ctx) });

  on.post('/signup', { access: 'public', body: CustomerSignUpBody, status: 202 }, ({ ctx, body }) => signUpCustomer(platform, body, caller(ctx), guestOrders));

  // The account of a record the store already knew, opened with the token sent to its email (docs/customer-accounts.md).
  on.post('/activate', { access: 'public', body: CustomerActivateBody }, ({ ctx, body }) => activateCustomerAccount(platform, body, caller(ctx), guestOrders));

  on.post('/login', { access: 'public', body: CustomerLoginBody }, ({ ctx, body }) => logInCustomer(platform, body, caller(ctx)));

  on.post('/logout', { access, respond: 'empty' }, ({ customer }) => logOutCustomer(platform, customerSession(customer)));

  on.post('/password/reset', { access: 'public', body: CustomerResetBody, status: 202 }, async ({ ctx, body }) => {
    await requestCustomerPasswordReset(platform, body, caller(ctx));
    return { accepted: true, message: 'If an account exists for that email in this store, a message is on its way' };
  });

  on.post('/password/update', { access: 'public', body: CustomerPasswordUpdateBody }, async ({ ctx, body }) => {
    if (body.reset_token !== undefined) {
      return updateCustomerPassword(platform, { via: 'reset_token', resetToken: body.reset_token, newPassword: body.new_password }, caller(ctx), guestOrders);
    }
    // The current-password form needs the session it is changed from.
    const principal = await resolvePrincipal(platform, ctx);
    if (principal?.kind !== 'customer') {
      throw new PlatformError(
        'unauthenticated',
        'unauthenticated',
        'Changing the password with current_password needs a customer session (Authorization: Bearer <customer token>)',
      );
    }
    const session = customerSession(principal);
    return updateCustomerPassword(
      platform,
      { via: 'current_password', session, currentPassword: body.current_password!, newPassword: body.new_password },
      caller(ctx),
      guestOrders,
    );
  });

  on.get('/me', { access }, ({ customer }) => getAccount(platform, customer.storeId, customer.customerId));

  on.get('/addresses', { access, query: PageQuery.strict(), respond: 'page' }, ({ customer, query }) =>
    listAddresses(platform, customer.storeId, customer.customerId, query),
  );
  on.post('/addresses', { access, body: CreateAddressBody, idempotent: true, status: 201 }, ({ customer, body }) =>
    createAddress(platform, customer.storeId, customer.customerId, body),
  );
  // Spec 4.4 names PATCH and DELETE on /addresses itself: the address is then named in the body.
  on.patch('/addresses', { access, body: OwnAddressChangeByIdBody }, ({ customer, body }) => {
    const { id, ...change } = body;
    return changeOwnAddress(platform, customer.storeId, customer.customerId, id, change);
  });
  on.delete('/addresses', { access, body: ById, respond: 'empty' }, ({ customer, body }) =>
    deleteAddress(platform, customer.storeId, customer.customerId, body.id),
  );
  on.get('/addresses/:id', { access }, ({ customer, params }) => getAddress(platform, customer.storeId, customer.customerId, params.id));
  on.patch('/addresses/:id', { access, body: OwnAddressChangeBody }, ({ customer, params, body }) =>
    changeOwnAddress(platform, customer.storeId, customer.customerId, params.id, body),
  );
  on.delete('/addresses/:id', { access, respond: 'empty' }, ({ customer, params }) =>
    deleteAddress(platform, customer.storeId, customer.customerId, params.id),
  );

  on.get('/wishlist', { access, query: PageQuery.strict(), respond: 'page' }, ({ customer, query }) =>
    listWishlist(platform, customer.storeId, customer.customerId, query),
  );
  on.post('/wishlist', { access, body: AddWishlistItemBody, status: 201 }, ({ customer, body }) =>
    addWishlistItem(platform, customer.storeId, customer.customerId, body),
  );
  on.delete('/wishlist/:id', { access, respond: 'empty' }, ({ customer, params }) =>
    removeWishlistItem(platform, customer.storeId, customer.customerId, params.id),
  );

  return on.router;
}
