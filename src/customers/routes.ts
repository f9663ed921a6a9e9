import Router from '@koa/router';
import type { AppRouter } from '../http/context.js';
import { endpoint, storeScoped } from '../http/endpoint.js';
import { PageQuery } from '../pagination.js';
import type { Platform } from '../platform.js';
import { inviteCustomer } from './activation.js';
import { createAddress, deleteAddress, getAddress, listAddresses, makeDefaultAddress, updateAddress } from './addresses.js';
import { CreateAddressBody, CreateCustomerBody, ListCustomersQuery, UpdateAddressBody, UpdateCustomerBody } from './schemas.js';
import { createCustomer, getCustomer, listCustomers, updateCustomer } from './service.js';

const read = storeScoped('read_customers');
const write = storeScoped('write_customers');

/** /v1/customers: the customers of the X-Store-Id store (or an app's own store), and their addresses. */
export function customerRoutes(platform: Platform): AppRouter {
  const router: AppRouter = new Router();

  router.get(
    '/',
    endpoint(platform, { access: read, query: ListCustomersQuery, respond: 'page' }, ({ store, query }) => listCustomers(platform, store.id, query)),
  );

  router.post(
    '/',
    endpoint(platform, { access: write, body: CreateCustomerBody, idempotent: true, status: 201 }, ({ store, body }) => createCustomer(platform, store, body)),
  );

  router.get(
    '/:id',
    endpoint(platform, { access: read }, ({ store, params }) => getCustomer(platform, store.id, params.id)),
  );

  router.patch(
    '/:id',
    endpoint(platform, { access: write, body: UpdateCustomerBody }, ({ store, params, body }) => updateCustomer(platform, store.id, params.id, body)),
  );

  // An invitation to open a storefront account, sent to the customer's email (docs/customer-accounts.md).
  router.post(
    '/:id/invite',
    endpoint(platform, { access: write, idempotent: true, status: 202 }, ({ store, params }) => inviteCustomer(platform, store, params.id)),
  );

  router.get(
    '/:id/addresses',
    endpoint(platform, { access: read, query: PageQuery.strict(), respond: 'page' }, ({ store, params, query }) =>
      listAddresses(platform, store.id, params.id, query),
    ),
  );

  router.post(
    '/:id/addresses',
    endpoint(platform, { access: write, body: CreateAddressBody, idempotent: true, status: 201 }, ({ store, params, body }) =>
      createAddress(platform, store.id, params.id, body),
    ),
  );

  router.get(
    '/:id/addresses/:addressId',
    endpoint(platform, { access: read }, ({ store, params }) => getAddress(platform, store.id, params.id, params.addressId)),
  );

  router.patch(
    '/:id/addresses/:addressId',
    endpoint(platform, { access: write, body: UpdateAddressBody }, ({ store, params, body }) =>
      updateAddress(platform, store.id, params.id, params.addressId, body),
    ),
  );

  router.delete(
    '/:id/addresses/:addressId',
    endpoint(platform, { access: write, respond: 'empty' }, ({ store, params }) => deleteAddress(platform, store.id, params.id, params.addressId)),
  );

  router.post(
    '/:id/addresses/:addressId/default',
    endpoint(platform, { access: write }, ({ store, params }) => makeDefaultAddress(platform, store.id, params.id, params.addressId)),
  );

  return router;
}
