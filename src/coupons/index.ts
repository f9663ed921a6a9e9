import type { Module } from '../module.js';
import { couponRoutes } from './routes.js';
import { COUPONS, couponIndexes } from './store.js';
export { evaluateCoupon, type CouponEvaluation, type CouponRefusal } from './service.js';
export {
  announceCouponRedemption,
  claimCouponRedemption,
  clearCouponKey,
  couponCustomerKey,
  undoCouponRedemption,
  type CouponRedemption,
  type RedemptionOutcome,
} from './redemptions.js';
export type { EvaluationCart } from './schemas.js';
export type { CouponView } from './present.js';

/** Discount codes: /v1/coupons. */
export const couponsModule: Module = {
  name: 'coupons',
  indexes: couponIndexes,
  routes: [{ path: '/v1/coupons', router: couponRoutes }],
  eventCarriers: [COUPONS],
  eventTypes: ['coupon.created', 'coupon.deleted', 'coupon.redeemed', 'coupon.updated'],
};
