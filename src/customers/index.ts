import type { Module } from '../module.js';
import { customerSessionAuthenticator } from './access.js';
import { customerAccountRoutes } from './account-routes.js';
import { customerRoutes } from './routes.js';
import { CUSTOMERS, CUSTOMER_ADDRESSES, customerIndexes } from './store.js';
export { clearCustomerKey, getCustomer } from './service.js';
export { sweepExpiredCustomerCredentials } from './account.js';
export { recordCustomerOrder } from './orders.js';
export type { CustomerView, CustomerAddressView } from './present.js';

/** Customers and their addresses: /v1/customers; shoppers' accounts: /v1/storefront/customer and the customer session authenticator. */
export const customersModule: Module = {
  name: 'customers',
  indexes: customerIndexes,
  routes: [
    { path: '/v1/customers', router: customerRoutes },
    { path: '/v1/storefront/customer', router: customerAccountRoutes },
  ],
  authenticators: [customerSessionAuthenticator],
  eventCarriers: [CUSTOMERS, CUSTOMER_ADDRESSES],
  eventTypes: ['customer.created', 'customer.updated', 'customer_address.created', 'customer_address.deleted', 'customer_address.updated'],
};
