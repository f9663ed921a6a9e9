import type { Module } from '../module.js';
import type { GuestOrderLinks } from './account.js';
import { CUSTOMERS_ERROR_CODES } from './errors.js';
import { CUSTOMERS_EVENT_TYPES } from './events.js';
import { customerSessionAuthenticator } from './access.js';
import { customerAccountRoutes } from './account-routes.js';
import { customersJobs } from './jobs.js';
import { customerRoutes } from './routes.js';
import { CUSTOMERS, CUSTOMER_ADDRESSES, customerIndexes } from './models.js';
export {
  clearCustomerKey,
  countCustomers,
  createCustomer,
  customersByIds,
  findCustomerByEmail,
  getCustomer,
  listCustomers,
  updateCustomer,
} from './service.js';
export { addressesOfCustomers, createAddress, deleteAddress, getAddress, listAddresses, makeDefaultAddress, updateAddress } from './addresses.js';
export { inviteCustomer } from './activation.js';
export { subscribeToNewsletter, type NewsletterSignUp } from './marketing.js';
export { CreateAddressBody, CreateCustomerBody, ListCustomersQuery, UpdateAddressBody, UpdateCustomerBody } from './schemas.js';
export {
  activateCustomerAccount,
  authenticateCustomerSession,
  getAccount,
  logInCustomer,
  logOutCustomer,
  signUpCustomer,
  sweepExpiredCustomerCredentials,
  type GuestOrderLinks,
} from './account.js';
export { SweepCustomerCredentials } from './jobs.js';
export { recordCustomerOrder } from './order-stats.js';
export type { AccountView, CustomerView, CustomerAddressView } from './present.js';

/**
 * Customers and their addresses: /v1/customers; shoppers' accounts: /v1/storefront/customer and
 * the customer session authenticator. A factory: the orders domain's guest orders (claimed when
 * an email is proven) are given it in src/modules.ts.
 */
export const customersModule = (deps: { guestOrders: GuestOrderLinks }): Module => ({
  name: 'customers',
  errorCodes: CUSTOMERS_ERROR_CODES,
  indexes: customerIndexes,
  routes: [
    { path: '/v1/customers', router: customerRoutes },
    { path: '/v1/storefront/customer', router: (platform) => customerAccountRoutes(platform, deps.guestOrders) },
  ],
  authenticators: [customerSessionAuthenticator],
  jobs: customersJobs,
  eventCarriers: [CUSTOMERS, CUSTOMER_ADDRESSES],
  eventTypes: CUSTOMERS_EVENT_TYPES,
});
