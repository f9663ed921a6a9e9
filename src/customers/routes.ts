import type { AppRouter } from '../http/context.js';
import { routes, storeScoped } from '../http/endpoint.js';
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
  const on = routes(platform);

  on.get('/', { access: read, query: ListCustomersQuery, respond: 'page' }, ({ store, query }) => listCustomers(platform, store.id, query));

  on.post('/', { access: write, body: CreateCustomerBody, idempotent: true, status: 201 }, ({ store, body }) => createCustomer(platform, store, body));

  on.get('/:id', { access: read }, ({ store, params }) => getCustomer(platform, store.id, params.id));

  on.patch('/:id', { access: write, body: UpdateCustomerBody }, ({ store, params, body }) => updateCustomer(platform, store.id, params.id, body));

  // An invitation to open a storefront account, sent to the customer's email (docs/customer-accounts.md).
  on.post('/:id/invite', { access: write, idempotent: true, status: 202 }, ({ store, params }) => inviteCustomer(platform, store, params.id));

  on.get('/:id/addresses', { access: read, query: PageQuery.strict(), respond: 'page' }, ({ store, params, query }) =>
    listAddresses(platform, store.id, params.id, query),
  );

  on.post('/:id/addresses', { access: write, body: CreateAddressBody, idempotent: true, status: 201 }, ({ store, params, body }) =>
    createAddress(platform, store.id, params.id, body),
  );

  on.get('/:id/addresses/:addressId', { access: read }, ({ store, params }) => getAddress(platform, store.id, params.id, params.addressId));

  on.patch('/:id/addresses/:addressId', { access: write, body: UpdateAddressBody }, ({ store, params, body }) =>
    updateAddress(platform, store.id, params.id, params.addressId, body),
  );

  on.delete('/:id/addresses/:addressId', { access: write, respond: 'empty' }, ({ store, params }) =>
    deleteAddress(platform, store.id, params.id, params.addressId),
  );

  on.post('/:id/addresses/:addressId/default', { access: write }, ({ store, params }) => makeDefaultAddress(platform, store.id, params.id, params.addressId));

  return on.router;
}
