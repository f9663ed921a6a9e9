import type { Module } from '../module.js';
import { customerRoutes } from './routes.js';
import { CUSTOMERS, CUSTOMER_ADDRESSES, customerIndexes } from './store.js';
export { clearCustomerKey, getCustomer } from './service.js';
export { recordCustomerOrder } from './orders.js';
export type { CustomerView, CustomerAddressView } from './present.js';

/** Customers and their addresses: /v1/customers. */
export const customersModule: Module = {
  name: 'customers',
  indexes: customerIndexes,
  routes: [{ path: '/v1/customers', router: customerRoutes }],
  eventCarriers: [CUSTOMERS, CUSTOMER_ADDRESSES],
  eventTypes: ['customer.created', 'customer.updated', 'customer_address.created', 'customer_address.deleted', 'customer_address.updated'],
};
