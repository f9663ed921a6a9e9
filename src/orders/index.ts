import type { Module } from '../module.js';
import { ORDERS_ERROR_CODES } from './errors.js';
import { ORDERS_EVENT_TYPES } from './events.js';
import { customerOrderRoutes, orderRoutes } from './routes.js';
import { ordersJobs } from './jobs.js';
import { orderIndexes } from './models.js';
export { repairOrders } from './changes.js';
export { RepairOrders } from './jobs.js';
export { createOrder } from './create.js';
export { claimGuestOrders, guestOrderLinks, hasGuestOrders } from './claims.js';
export {
  cancelOrder,
  countOrders,
  countOrdersToFulfil,
  findOrderByRequest,
  fulfillOrder,
  getOrder,
  listOrders,
  markOrderPaid,
  ordersByIds,
  refundOrder,
} from './service.js';
export { customerBoughtProduct, getShopperOrder, listCustomerOrders, type ShopperProof } from './customer-reads.js';
export type { RequestRef } from './models.js';
export { CancelBody, CreateOrderBody, FulfillBody, ListOrdersQuery, RefundBody } from './schemas.js';
export { dayOf, orderDaysUpTo, type DayFigures } from './days.js';
export type { CustomerOrderView, OrderView } from './present.js';

/** Orders, fulfilments, refunds, cancellations and payments: /v1/orders; a customer's own orders: /v1/storefront/customer/orders. */
export const ordersModule: Module = {
  name: 'orders',
  errorCodes: ORDERS_ERROR_CODES,
  indexes: orderIndexes,
  routes: [
    { path: '/v1/orders', router: orderRoutes },
    { path: '/v1/storefront/customer/orders', router: customerOrderRoutes },
  ],
  jobs: ordersJobs,
  eventTypes: ORDERS_EVENT_TYPES,
};
