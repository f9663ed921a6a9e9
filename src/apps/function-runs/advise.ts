import type { Platform } from '../../platform.js';
import { liveRows } from '../extensions/resolution.js';
import type { RegistrationDocument } from '../extensions/models.js';
import {
  applyPaymentAdvice,
  applyShippingAdvice,
  mergeCouponAdvice,
  mergePaymentAdvice,
  mergeShippingAdvice,
  mergeValidationAdvice,
  type FunctionResult,
} from '../functions/apply.js';
import type { FunctionRun } from '../functions/engine.js';
import type { FunctionRunRequest } from '../functions/function-thread.js';
import { resolveSettings } from '../functions/settings.js';
import { functionRunnerOf } from '../functions/threads.js';
import type {
  CheckoutFunctionTarget,
  CouponOutput,
  FunctionCart,
  FunctionInput,
  FunctionSettings,
  PaymentMethodChoice,
  ShippingOption,
} from '../functions/targets.js';
import { recordRuns, type RunRecord } from './record.js';

/** What the checkout offers before any function advised, and whose checkout it is. */
export type CheckoutAdviceRequest = {
  storeId: string;
  cart: FunctionCart;
  shippingOptions: ShippingOption[];
  paymentMethods: PaymentMethodChoice[];
  /** Which checkout runs the functions: kept in the run log for the merchant (never shown to the partner). */
  ref: { cart_id: string | null; customer_id: string | null };
};

/** A validation error as the checkout shows it: `blocking` when the merchant marked its function blocking. */
export type CheckoutValidationError = { message: string; field: string | null; blocking: boolean };

/** What the checkout offers after the store's enabled Checkout Functions advised (docs/extensions.md, At checkout). */
export type CheckoutAdvice = {
  shipping_options: ShippingOption[];
  payment_methods: PaymentMethodChoice[];
  /** A payment_method function ran: the methods are its advice, and the order keeps them (null on the order otherwise: no restriction). */
  payment_methods_advised: boolean;
  /** The functions' decision on the cart's coupon code: null without a code (or without a coupon function: `allow`). */
  coupon: CouponOutput | null;
  errors: CheckoutValidationError[];
};

/** A function's settings as its program reads them: the manifest's defaults, with the merchant's values. */
function settingsOf(row: RegistrationDocument): FunctionSettings {
  const defaults = row.config.settings;
  return resolveSettings(typeof defaults === 'object' && defaults !== null && !Array.isArray(defaults) ? (defaults as FunctionSettings) : {}, row.settings);
}

/**
 * Run the store's enabled Checkout Functions on a checkout and apply their advice (spec 1: they
 * only advise). Each function of a target runs on the same input, and their advice combines in
 * registration order (functions/apply.ts); a run that fails gives no advice (it fails securely).
 * The runs go to a function thread together (functions/threads.ts), never on the event loop.
 * Every run is recorded (metrics and run log, written within a quarter second). A store without
 * enabled functions costs one indexed read, and no thread.
 */
export async function adviseCheckout(platform: Platform, request: CheckoutAdviceRequest): Promise<CheckoutAdvice> {
  const { cart, shippingOptions, paymentMethods } = request;
  const rows = await liveRows(platform, request.storeId, 'checkout_function');
  const of = (target: CheckoutFunctionTarget) => rows.filter((r) => r.target === target);
  const planned: { row: RegistrationDocument; request: FunctionRunRequest }[] = [];
  const plan = <T extends CheckoutFunctionTarget>(target: T, input: (settings: FunctionSettings) => FunctionInput<T>) => {
    for (const row of of(target)) planned.push({ row, request: { program: row.config.program, target, input: input(settingsOf(row)) } as FunctionRunRequest });
  };
  if (cart.coupon_code !== null) plan('coupon', (settings) => ({ cart, settings }));
  if (shippingOptions.length > 0) plan('shipping', (settings) => ({ cart, settings, shipping_options: shippingOptions }));
  if (paymentMethods.length > 0) plan('payment_method', (settings) => ({ cart, settings, payment_methods: paymentMethods }));
  plan('validation', (settings) => ({ cart, settings }));

  const at = platform.clock.now();
  const requests = planned.map((p) => p.request);
  const runs = requests.length === 0 ? [] : await functionRunnerOf(platform).run(request.storeId, requests);
  recordRuns(
    platform,
    planned.map(({ row }, i): RunRecord => ({ registration: row, run: runs[i]!, at, ...request.ref })),
  );
  const resultsOf = <T extends CheckoutFunctionTarget>(target: T): FunctionResult<FunctionRun<T>>[] =>
    planned.flatMap(({ row, request: r }, i) =>
      r.target === target ? [{ registration: { id: row._id.toHexString(), created_at: row.created_at }, run: runs[i] as FunctionRun<T> }] : [],
    );
  const [coupon, shipping, payment, validation] = [resultsOf('coupon'), resultsOf('shipping'), resultsOf('payment_method'), resultsOf('validation')];
  const blockingIds = new Set(
    of('validation')
      .filter((r) => r.blocking)
      .map((r) => r._id.toHexString()),
  );

  const errors = [
    ...mergeValidationAdvice(validation.filter((v) => blockingIds.has(v.registration.id))).map((e) => ({
      message: e.message,
      field: e.field ?? null,
      blocking: true,
    })),
    ...mergeValidationAdvice(validation.filter((v) => !blockingIds.has(v.registration.id))).map((e) => ({
      message: e.message,
      field: e.field ?? null,
      blocking: false,
    })),
  ];
  return {
    shipping_options: applyShippingAdvice(shippingOptions, mergeShippingAdvice(shipping)),
    payment_methods: applyPaymentAdvice(paymentMethods, mergePaymentAdvice(payment)),
    payment_methods_advised: payment.length > 0,
    coupon: cart.coupon_code === null ? null : mergeCouponAdvice(coupon),
    errors,
  };
}
