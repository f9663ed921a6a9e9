export { evaluateCoupon, redeemCoupon, type CouponEvaluation, type CouponRefusal } from './service.js';
export type { EvaluationCart } from './schemas.js';
export type { CouponView } from './present.js';
export { couponIndexes } from './store.js';
