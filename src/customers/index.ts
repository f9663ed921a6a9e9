export { getCustomer, recordCustomerOrder } from './service.js';
export type { CustomerView, CustomerAddressView } from './present.js';
export { customerIndexes } from './store.js';
