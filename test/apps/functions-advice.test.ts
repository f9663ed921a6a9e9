import { expect } from 'chai';
import {
  applyPaymentAdvice,
  applyShippingAdvice,
  inRegistrationOrder,
  mergeCouponAdvice,
  mergePaymentAdvice,
  mergeShippingAdvice,
  mergeValidationAdvice,
  type FunctionResult,
} from '../../src/apps/functions/apply.js';
import type { FunctionRun } from '../../src/apps/functions/engine.js';
import type { CheckoutFunctionTarget, FunctionOutput } from '../../src/apps/functions/targets.js';

const OPTIONS = [
  { code: 'standard', name: 'Standard', price: 900, carrier: 'post' },
  { code: 'express', name: 'Express', price: 2400, carrier: 'courier' },
  { code: 'pickup', name: 'Pickup', price: 0, carrier: null },
];
const METHODS = [
  { provider: 'stripe', name: 'Card' },
  { provider: 'paypal', name: 'PayPal' },
  { provider: 'manual', name: 'Bank transfer' },
];

/** A function's run at a checkout, registered on `day` of January (its id breaks ties). */
function givenResult<T extends CheckoutFunctionTarget>(day: number, id: string, output: FunctionOutput<T> | 'failed'): FunctionResult<FunctionRun<T>> {
  const measures = { durationMs: 0.1, inputBytes: 100, outputBytes: 10 };
  const run: FunctionRun<T> =
    output === 'failed'
      ? { ok: false, code: 'time_limit', message: 'the program ran out of time', ...measures }
      : { ok: true, output, operations: 5, ...measures };
  return { registration: { id, created_at: new Date(Date.UTC(2026, 0, day)) }, run };
}

describe('Checkout Functions: applying advice', () => {
  describe('applyShippingAdvice', () => {
    it('hides, renames and moves options, keeping every other field (the price) as it was', () => {
      const result = applyShippingAdvice(OPTIONS, [
        { hide: 'express' },
        { rename: { code: 'standard', name: 'Tracked post' } },
        { move: { code: 'pickup', index: 0 } },
      ]);
      expect(result).to.deep.equal([
        { code: 'pickup', name: 'Pickup', price: 0, carrier: null },
        { code: 'standard', name: 'Tracked post', price: 900, carrier: 'post' },
      ]);
      expect(OPTIONS[0]!.name).to.equal('Standard'); // a new list, the caller's untouched
    });

    it('ignores codes that name no option, and never adds one', () => {
      const result = applyShippingAdvice(OPTIONS, [
        { hide: 'drone' },
        { rename: { code: 'teleport', name: 'Free teleport' } },
        { move: { code: 'sled', index: 0 } },
      ]);
      expect(result).to.deep.equal(OPTIONS);
    });

    it('applies operations in order: a move past the end goes last, an option hidden cannot be renamed or moved back', () => {
      const result = applyShippingAdvice(OPTIONS, [
        { move: { code: 'standard', index: 99 } },
        { hide: 'pickup' },
        { rename: { code: 'pickup', name: 'Back' } },
        { move: { code: 'pickup', index: 0 } },
        { rename: { code: 'express', name: 'Fast' } },
        { rename: { code: 'express', name: 'Faster' } },
      ]);
      expect(result.map((o) => [o.code, o.name, o.price])).to.deep.equal([
        ['express', 'Faster', 2400],
        ['standard', 'Standard', 900],
      ]);
    });
  });

  describe('applyPaymentAdvice', () => {
    it('hides and moves methods by provider, ignoring unknown providers', () => {
      const result = applyPaymentAdvice(METHODS, [
        { hide: 'manual' },
        { hide: 'bitcoin' },
        { move: { provider: 'paypal', index: 0 } },
        { move: { provider: 'cash', index: 0 } },
      ]);
      expect(result).to.deep.equal([
        { provider: 'paypal', name: 'PayPal' },
        { provider: 'stripe', name: 'Card' },
      ]);
    });
  });

  describe('several functions', () => {
    it('orders runs by their registration’s creation, the id breaking a tie', () => {
      const allow = { decision: 'allow' as const };
      const runs = [givenResult<'coupon'>(3, 'c', allow), givenResult<'coupon'>(1, 'b', allow), givenResult<'coupon'>(1, 'a', allow)];
      expect(inRegistrationOrder(runs).map((r) => r.registration.id)).to.deep.equal(['a', 'b', 'c']);
    });

    it('shipping: each function’s operations after the older ones’, so the newer rename wins; a failed run gives none', () => {
      const operations = mergeShippingAdvice([
        givenResult(5, 'newer', { operations: [{ rename: { code: 'standard', name: 'Newer' } }] }),
        givenResult(2, 'failed', 'failed'),
        givenResult(1, 'older', { operations: [{ rename: { code: 'standard', name: 'Older' } }, { hide: 'express' }] }),
      ]);
      expect(operations).to.deep.equal([{ rename: { code: 'standard', name: 'Older' } }, { hide: 'express' }, { rename: { code: 'standard', name: 'Newer' } }]);
      expect(applyShippingAdvice(OPTIONS, operations).map((o) => o.name)).to.deep.equal(['Newer', 'Pickup']);
    });

    it('payment methods: operations in registration order', () => {
      const operations = mergePaymentAdvice([
        givenResult(2, 'b', { operations: [{ move: { provider: 'manual', index: 0 } }] }),
        givenResult(1, 'a', { operations: [{ move: { provider: 'paypal', index: 0 } }] }),
      ]);
      expect(applyPaymentAdvice(METHODS, operations).map((m) => m.provider)).to.deep.equal(['manual', 'paypal', 'stripe']);
    });

    it('coupon: refused when any run refuses, with the oldest refusal’s message; allowed when none does or all failed', () => {
      expect(
        mergeCouponAdvice([
          givenResult(3, 'c', { decision: 'refuse', message: 'Third' }),
          givenResult(1, 'a', { decision: 'allow' }),
          givenResult(2, 'b', { decision: 'refuse', message: 'Second' }),
        ]),
      ).to.deep.equal({ decision: 'refuse', message: 'Second' });
      expect(mergeCouponAdvice([givenResult(1, 'a', { decision: 'allow' }), givenResult(2, 'b', 'failed')])).to.deep.equal({ decision: 'allow' });
      expect(mergeCouponAdvice([])).to.deep.equal({ decision: 'allow' });
    });

    it('validation: every run’s errors in registration order, the same message for the same field once', () => {
      const errors = mergeValidationAdvice([
        givenResult(2, 'b', { errors: [{ message: 'No PO boxes', field: 'shipping_address' }, { message: 'At most 5 mugs' }] }),
        givenResult(1, 'a', { errors: [{ message: 'At most 5 mugs' }] }),
        givenResult(3, 'c', 'failed'),
      ]);
      expect(errors).to.deep.equal([{ message: 'At most 5 mugs' }, { message: 'No PO boxes', field: 'shipping_address' }]);
    });
  });
});
