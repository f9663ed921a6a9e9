import type { Module } from '../module.js';
import { COUPONS_ERROR_CODES } from './errors.js';
import { COUPONS_EVENT_TYPES } from './events.js';
import { couponRoutes } from './routes.js';
import { COUPONS, couponIndexes } from './models.js';
export { createCoupon, deleteCoupon, evaluateCoupon, getCoupon, listCoupons, updateCoupon, type CouponEvaluation, type CouponRefusal } from './service.js';
export {
  announceCouponRedemption,
  claimCouponRedemption,
  clearCouponKey,
  couponCustomerKey,
  undoCouponRedemption,
  type CouponRedemption,
  type RedemptionOutcome,
} from './redemptions.js';
export { CreateCouponBody, ListCouponsQuery, UpdateCouponBody, type EvaluationCart } from './schemas.js';
export type { CouponView } from './present.js';

/** Discount codes: /v1/coupons. */
export const couponsModule: Module = {
  name: 'coupons',
  errorCodes: COUPONS_ERROR_CODES,
  indexes: couponIndexes,
  routes: [{ path: '/v1/coupons', router: couponRoutes }],
  eventCarriers: [COUPONS],
  eventTypes: COUPONS_EVENT_TYPES,
};
