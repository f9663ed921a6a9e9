import type { Module } from '../module.js';
import { customerRoutes } from './routes.js';
import { customerIndexes } from './store.js';
export { clearCustomerKey, getCustomer, recordCustomerOrder } from './service.js';
export type { CustomerView, CustomerAddressView } from './present.js';

/** Customers and their addresses: /v1/customers. */
export const customersModule: Module = {
  name: 'customers',
  indexes: customerIndexes,
  routes: [{ path: '/v1/customers', router: customerRoutes }],
  eventTypes: ['customer.created', 'customer.updated', 'customer_address.created', 'customer_address.deleted', 'customer_address.updated'],
};
