import type { FunctionRun } from './engine.js';
import type { CheckoutFunctionTarget, CouponOutput, FunctionOutput, PaymentOperation, ShippingOperation, ValidationOutput } from './targets.js';

/**
 * What the checkout does with Checkout Functions' advice (docs/extensions.md, Checkout
 * Functions). Pure: the caller gives the options and the runs, and gets the options back. Advice
 * only removes, renames and reorders what the checkout offers; it never adds an option and never
 * touches a price or any field but `name`. A code that names nothing offered is ignored.
 */

/** Shipping options as the checkout offers them: whatever else they carry (a price) comes back as it was. */
export function applyShippingAdvice<T extends { code: string; name: string }>(options: readonly T[], operations: readonly ShippingOperation[]): T[] {
  let list = [...options];
  for (const op of operations) {
    if ('hide' in op) list = list.filter((o) => o.code !== op.hide);
    else if ('rename' in op) list = list.map((o) => (o.code === op.rename.code ? { ...o, name: op.rename.name } : o));
    else list = moved(list, (o) => o.code === op.move.code, op.move.index);
  }
  return list;
}

/** Payment methods as the checkout offers them, by provider. */
export function applyPaymentAdvice<T extends { provider: string }>(methods: readonly T[], operations: readonly PaymentOperation[]): T[] {
  let list = [...methods];
  for (const op of operations) {
    if ('hide' in op) list = list.filter((m) => m.provider !== op.hide);
    else list = moved(list, (m) => m.provider === op.move.provider, op.move.index);
  }
  return list;
}

/** The first item that matches, taken out and put back at `index` (at the end when the list is shorter). */
function moved<T>(list: T[], matches: (item: T) => boolean, index: number): T[] {
  const from = list.findIndex(matches);
  if (from < 0) return list;
  const rest = [...list.slice(0, from), ...list.slice(from + 1)];
  rest.splice(Math.min(index, rest.length), 0, list[from]!);
  return rest;
}

/**
 * One function's run at a checkout, with the registration that ordered it: the installation's
 * function registration (its id and when it was created).
 */
export type FunctionResult<R> = { registration: { id: string; created_at: Date }; run: R };

/**
 * Several functions' advice on one target combine in the order their registrations were created
 * (the oldest first; the id breaks a tie), each function's operations after the previous ones':
 * a later rename or move of the same option wins, and a hidden option stays hidden. A run that
 * failed gives no advice (it "fails securely"): the checkout goes on as if it had not run.
 */
export function inRegistrationOrder<A extends FunctionResult<unknown>>(results: readonly A[]): A[] {
  return [...results].sort(
    (a, b) =>
      a.registration.created_at.getTime() - b.registration.created_at.getTime() ||
      (a.registration.id < b.registration.id ? -1 : a.registration.id > b.registration.id ? 1 : 0),
  );
}

function outputsOf<T extends CheckoutFunctionTarget>(results: readonly FunctionResult<FunctionRun<T>>[]): FunctionOutput<T>[] {
  return inRegistrationOrder(results).flatMap((r) => (r.run.ok ? [r.run.output] : []));
}

/** The operations of every successful shipping run, in registration order, for applyShippingAdvice. */
export function mergeShippingAdvice(results: readonly FunctionResult<FunctionRun<'shipping'>>[]): ShippingOperation[] {
  return outputsOf(results).flatMap((o) => o.operations);
}

/** The operations of every successful payment method run, in registration order, for applyPaymentAdvice. */
export function mergePaymentAdvice(results: readonly FunctionResult<FunctionRun<'payment_method'>>[]): PaymentOperation[] {
  return outputsOf(results).flatMap((o) => o.operations);
}

/** A coupon code is refused when any successful run refuses it; the first refusal in registration order gives the message. */
export function mergeCouponAdvice(results: readonly FunctionResult<FunctionRun<'coupon'>>[]): CouponOutput {
  return outputsOf(results).find((o) => o.decision === 'refuse') ?? { decision: 'allow' };
}

/** Every successful validation run's errors, in registration order; the same message for the same field once. */
export function mergeValidationAdvice(results: readonly FunctionResult<FunctionRun<'validation'>>[]): ValidationOutput['errors'] {
  const seen = new Set<string>();
  return outputsOf(results)
    .flatMap((o) => o.errors)
    .filter((e) => {
      const key = JSON.stringify([e.field ?? null, e.message]);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}
