import { expect } from 'chai';
import { applyPaymentAdvice, applyShippingAdvice } from '../../src/apps/functions/apply.js';
import { MAX_INPUT_BYTES, runCheckoutFunction, type FunctionLimits, type FunctionRun } from '../../src/apps/functions/engine.js';
import type { CheckoutFunctionTarget, FunctionInputs, FunctionSettings, ShippingOption } from '../../src/apps/functions/targets.js';
import { givenCart } from '../helpers/functions.js';

/**
 * The engine with a clock of a second unless a test sets one: the tests count operations and read
 * outcomes, and a busy machine can pause a run past its 5 ms (a time limit only its own test sets).
 */
const runCheckout = <T extends CheckoutFunctionTarget>(program: unknown, target: T, input: FunctionInputs[T], limits: Partial<FunctionLimits> = {}) =>
  runCheckoutFunction(program, target, input, { maxRunMs: 1000, ...limits });

export const SHIPPING_OPTIONS: ShippingOption[] = [
  { code: 'standard', name: 'Standard', price: 900 },
  { code: 'express', name: 'Express', price: 2400 },
  { code: 'pickup', name: 'Pickup', price: 0 },
];
const PAYMENT_METHODS = [
  { provider: 'stripe', name: 'Card' },
  { provider: 'paypal', name: 'PayPal' },
  { provider: 'manual', name: 'Bank transfer' },
];

function inputFor<T extends CheckoutFunctionTarget>(target: T, cart = givenCart(), settings: FunctionSettings = {}): FunctionInputs[T] {
  const common = { cart, settings };
  const inputs: FunctionInputs = {
    coupon: common,
    validation: common,
    shipping: { ...common, shipping_options: SHIPPING_OPTIONS },
    payment_method: { ...common, payment_methods: PAYMENT_METHODS },
  };
  return inputs[target];
}

const ok = <T extends CheckoutFunctionTarget>(run: FunctionRun<T>) => {
  expect(run.ok, JSON.stringify(run)).to.equal(true);
  return run as Extract<FunctionRun<T>, { ok: true }>;
};
const failure = <T extends CheckoutFunctionTarget>(run: FunctionRun<T>) => {
  expect(run.ok, JSON.stringify(run)).to.equal(false);
  return run as Extract<FunctionRun<T>, { ok: false }>;
};

// The answer `{ operations: <list> }`, `{ errors: <list> }`, ….
const answer = (key: string, value: unknown) => ({ eachKey: { [key]: value } });
const none = { preserve: [] };

describe('Checkout Functions: the engine (runCheckoutFunction)', () => {
  describe('each target', () => {
    it('coupon: refuses a code on a cart with a fragile line for a customer tagged wholesale, and allows it otherwise', () => {
      const program = {
        if: [
          {
            and: [
              { in: [{ var: 'settings.customer_tag' }, { var: 'cart.customer.tags' }] },
              { some: [{ var: 'cart.lines' }, { in: ['fragile', { var: 'tags' }] }] },
            ],
          },
          { eachKey: { decision: 'refuse', message: { cat: ['Code ', { var: 'cart.coupon_code' }, ' does not apply to fragile items'] } } },
          null,
        ],
      };
      const settings = { customer_tag: 'wholesale' };
      const refused = ok(runCheckout(program, 'coupon', inputFor('coupon', givenCart(), settings)));
      expect(refused.output).to.deep.equal({ decision: 'refuse', message: 'Code SPRING does not apply to fragile items' });
      const guest = ok(runCheckout(program, 'coupon', inputFor('coupon', givenCart(3, { customer: null }), settings)));
      expect(guest.output).to.deep.equal({ decision: 'allow' }); // null is no advice
    });

    it('shipping: hides, renames and moves options, and the advice applied changes names and order, never a price', () => {
      const program = answer('operations', {
        merge: [
          // Express hidden outside the merchant's country; options over the threshold renamed; pickup first.
          { if: [{ '!=': [{ var: 'cart.shipping_address.country' }, { var: 'settings.home_country' }] }, { preserve: [{ hide: 'express' }] }, none] },
          {
            map: [
              { filter: [{ var: 'shipping_options' }, { '>=': [{ var: 'price' }, { var: '../../settings.label_over' }] }] },
              { eachKey: { rename: { eachKey: { code: { var: 'code' }, name: { cat: [{ var: 'name' }, ' (tracked)'] } } } } },
            ],
          },
          { preserve: [{ move: { code: 'pickup', index: 0 } }] },
        ],
      });
      const run = ok(runCheckout(program, 'shipping', inputFor('shipping', givenCart(), { home_country: 'US', label_over: 500 })));
      expect(run.output.operations).to.deep.equal([
        { hide: 'express' },
        { rename: { code: 'standard', name: 'Standard (tracked)' } },
        { rename: { code: 'express', name: 'Express (tracked)' } },
        { move: { code: 'pickup', index: 0 } },
      ]);
      expect(applyShippingAdvice(SHIPPING_OPTIONS, run.output.operations)).to.deep.equal([
        { code: 'pickup', name: 'Pickup', price: 0 },
        { code: 'standard', name: 'Standard (tracked)', price: 900 },
      ]);
      expect(SHIPPING_OPTIONS[1]).to.deep.equal({ code: 'express', name: 'Express', price: 2400 }); // the caller's options as they were
    });

    it('payment_method: hides bank transfer over an amount and moves PayPal first', () => {
      const program = answer('operations', {
        merge: [
          { if: [{ '>': [{ var: 'cart.subtotal' }, { var: 'settings.manual_up_to' }] }, { preserve: [{ hide: 'manual' }] }, none] },
          { preserve: [{ move: { provider: 'paypal', index: 0 } }] },
        ],
      });
      const big = ok(runCheckout(program, 'payment_method', inputFor('payment_method', givenCart(), { manual_up_to: 5000 })));
      expect(applyPaymentAdvice(PAYMENT_METHODS, big.output.operations).map((m) => m.provider)).to.deep.equal(['paypal', 'stripe']);
      const small = ok(runCheckout(program, 'payment_method', inputFor('payment_method', givenCart(1), { manual_up_to: 5000 })));
      expect(applyPaymentAdvice(PAYMENT_METHODS, small.output.operations).map((m) => m.provider)).to.deep.equal(['paypal', 'stripe', 'manual']);
    });

    it('validation: an error for each line over the maximum quantity, naming the field', () => {
      const program = answer('errors', {
        map: [
          { filter: [{ var: 'cart.lines' }, { '>': [{ var: 'quantity' }, { var: '../../settings.max_quantity' }] }] },
          { eachKey: { message: { cat: ['At most ', { var: '../../settings.max_quantity' }, ' of ', { var: 'sku' }] }, field: 'lines' } },
        ],
      });
      const run = ok(runCheckout(program, 'validation', inputFor('validation', givenCart(4), { max_quantity: 2 })));
      expect(run.output).to.deep.equal({
        errors: [
          { message: 'At most 2 of SKU-2', field: 'lines' },
          { message: 'At most 2 of SKU-3', field: 'lines' },
        ],
      });
      expect(run.inputBytes).to.equal(Buffer.byteLength(JSON.stringify(inputFor('validation', givenCart(4), { max_quantity: 2 }))));
      expect(run.outputBytes).to.equal(Buffer.byteLength(JSON.stringify(run.output)));
    });

    it('takes an empty answer as no advice for every target', () => {
      expect(ok(runCheckout({}, 'coupon', inputFor('coupon'))).output).to.deep.equal({ decision: 'allow' });
      expect(ok(runCheckout({ preserve: {} }, 'shipping', inputFor('shipping'))).output).to.deep.equal({ operations: [] });
      expect(ok(runCheckout(null, 'payment_method', inputFor('payment_method'))).output).to.deep.equal({ operations: [] });
      expect(ok(runCheckout({ preserve: { errors: [] } }, 'validation', inputFor('validation'))).output).to.deep.equal({ errors: [] });
    });

    it('takes a field answered null as a field not answered: an if without its else is no advice', () => {
      // {"operations": {"if": [condition, advice, null]}} answers {"operations": null} when the condition is false.
      const unless = (key: string, advice: unknown) => answer(key, { if: [false, advice, null] });
      expect(ok(runCheckout(unless('operations', { preserve: [{ hide: 'express' }] }), 'shipping', inputFor('shipping'))).output).to.deep.equal({
        operations: [],
      });
      expect(ok(runCheckout(unless('operations', { preserve: [{ hide: 'manual' }] }), 'payment_method', inputFor('payment_method'))).output).to.deep.equal({
        operations: [],
      });
      expect(ok(runCheckout(unless('errors', { preserve: [{ message: 'No' }] }), 'validation', inputFor('validation'))).output).to.deep.equal({
        errors: [],
      });
      expect(ok(runCheckout({ preserve: { decision: null, message: null } }, 'coupon', inputFor('coupon'))).output).to.deep.equal({
        decision: 'allow',
      });
      // null inside a list is still no operation of any shape: refused.
      expect(failure(runCheckout({ preserve: { operations: [null] } }, 'shipping', inputFor('shipping'))).code).to.equal('invalid_output');
    });

    it('runs every allowed operator', () => {
      const checks = {
        if: { if: [false, 'no', 'yes'] },
        ternary: { '?:': [true, 'yes', 'no'] },
        logic: { and: [{ or: [false, 1] }, { '!': false }, { '!!': 'x' }, { '??': [null, 'y'] }] },
        compare: {
          and: [
            { '==': [1, '1'] },
            { '===': [1, 1] },
            { '!=': [1, 2] },
            { '!==': [1, '1'] },
            { '<': [1, 2, 3] },
            { '<=': [1, 1] },
            { '>': [2, 1] },
            { '>=': [2, 2] },
          ],
        },
        arithmetic: { '+': [{ '-': [10, 4] }, { '*': [2, 3] }, { '/': [8, 4] }, { '%': [7, 4] }, { min: [5, 2] }, { max: [1, 9] }] },
        strings: { cat: [{ substr: ['checkout', 0, 5] }, { in: ['out', 'checkout'] }] },
        lists: {
          merge: [
            { map: [{ preserve: [1, 2] }, { '*': [{ var: '' }, 10] }] },
            { filter: [{ preserve: [1, 2, 3] }, { '>': [{ var: '' }, 2] }] },
            { reduce: [{ preserve: [1, 2, 3] }, { '+': [{ var: 'accumulator' }, { var: 'current' }] }, 0] },
            { all: [{ preserve: [1] }, true] },
            { some: [{ preserve: [1] }, false] },
            { none: [{ preserve: [] }, true] },
            { length: { preserve: [1, 2] } },
          ],
        },
        data: { merge: [{ var: ['nothing', 'fallback'] }, { missing: ['cart', 'nothing'] }, { missing_some: [1, { preserve: ['cart', 'nothing'] }] }] },
      };
      const program = { eachKey: { decision: 'refuse', message: { cat: Object.values(checks).map((c) => ({ cat: [c, '|'] })) } } };
      expect(ok(runCheckout(program, 'coupon', inputFor('coupon'))).output.message).to.equal(
        'yes|yes|y|true|28|checktrue|10,20,3,6,true,false,true,2|fallback,nothing|',
      );
    });

    it('counts each operator and each callback of an iteration', () => {
      // eachKey, map, var; then per option: the callback, eachKey, var.
      const program = answer('operations', { map: [{ var: 'shipping_options' }, { eachKey: { hide: { var: 'code' } } }] });
      expect(ok(runCheckout(program, 'shipping', inputFor('shipping'))).operations).to.equal(3 + 3 * 3);
    });
  });

  describe('bounds', () => {
    const manyLines = givenCart(300);

    it('stops a nested iteration over a large list at the operation limit', () => {
      // 300 × 300 × 300 callbacks if it ran.
      const inner = { map: [{ var: '../../cart.lines' }, { some: [{ var: '../../../../cart.lines' }, { '==': [{ var: 'quantity' }, -1] }] }] };
      const program = answer('errors', { map: [{ var: 'cart.lines' }, inner] });
      const run = failure(runCheckout(program, 'validation', inputFor('validation', manyLines)));
      expect(run.code).to.equal('operation_limit');
      expect(run.message).to.match(/^the program used more than 10000 operations, the last of them in (var|some|==)$/);
    });

    it('stops a program that doubles a list or a string (reduce with merge or cat) before it grows past what it paid for', () => {
      const doubleList = { reduce: [{ var: 'cart.lines' }, { merge: [{ var: 'accumulator' }, { var: 'accumulator' }] }, { preserve: [1] }] };
      const doubleText = { reduce: [{ var: 'cart.lines' }, { cat: [{ var: 'accumulator' }, { var: 'accumulator' }] }, 'ab'] };
      for (const [grow, operator] of [
        [doubleList, 'merge'],
        [doubleText, 'cat'],
      ] as const) {
        const run = failure(runCheckout(answer('errors', grow), 'validation', inputFor('validation', manyLines)));
        expect(run.code, JSON.stringify(grow)).to.equal('operation_limit');
        expect(run.message).to.equal(`the program used more than 10000 operations, the last of them in ${operator}`);
      }
    });

    it('charges an operator for every item of the nested lists it is given, a list held twice counted twice, before any of them is turned into text', () => {
      // The audit's list (issue 36): each level holds the level below twice, for a few operations a
      // level, so 20 levels are 2^21 items to walk where a list becomes text: joined by cat, as
      // substr's position, as a data path, looked for in a string.
      const deep = {
        reduce: [{ preserve: Array.from({ length: 20 }, (_, i) => i) }, { map: [{ preserve: [0, 1] }, { var: '../../accumulator' }] }, { preserve: [0] }],
      };
      const uses: Record<string, unknown> = {
        cat: { cat: deep },
        substr: { substr: ['checkout', deep] },
        in: { in: [deep, 'checkout'] },
        var: { var: [deep, 'fallback'] },
        missing: { missing: [deep] },
        missing_some: { missing_some: [1, deep] },
      };
      for (const [operator, use] of Object.entries(uses)) {
        const run = failure(runCheckout(answer('errors', { if: [use, none, none] }), 'validation', inputFor('validation')));
        expect(run.code, operator).to.equal('operation_limit');
        expect(run.message, operator).to.equal(`the program used more than 10000 operations, the last of them in ${operator}`);
      }
      // 8 levels hold 766 items (2 + twice the level below; 1 in [0]): with substr's 2 arguments and 8 characters, 776 items, 12 operations more.
      const shallow = { reduce: [{ preserve: Array.from({ length: 8 }, (_, i) => i) }, ...deep.reduce.slice(1)] };
      const built = ok(runCheckout(answer('errors', { if: [shallow, none, none] }), 'validation', inputFor('validation')));
      const paid = ok(runCheckout(answer('errors', { if: [{ substr: ['checkout', shallow] }, none, none] }), 'validation', inputFor('validation')));
      expect(paid.operations - built.operations).to.equal(1 + Math.floor(776 / 64));
    });

    it('stops at the time limit when the operations allowed would take longer', () => {
      const program = answer('errors', {
        map: [{ var: 'cart.lines' }, { map: [{ var: '../../cart.lines' }, { map: [{ var: '../../../../cart.lines' }, 1] }] }],
      });
      const run = failure(runCheckout(program, 'validation', inputFor('validation', manyLines), { maxOperations: 1e12, maxRunMs: 5 }));
      expect(run.code).to.equal('time_limit');
      expect(run.message).to.match(/^the program ran out of time after \d+ operations, in (map|var)$/);
    });

    it('iterates only over lists: an object with a huge length is an error, not a loop', () => {
      const run = failure(
        runCheckout(answer('errors', { some: [{ var: 'settings' }, true] }), 'validation', inputFor('validation', givenCart(), { length: 1e12 })),
      );
      expect(run.code).to.equal('error');
      expect(run.message).to.equal('some iterates over a list, not object');
    });

    it('refuses an input over 64 KiB as JSON before running anything', () => {
      const run = failure(runCheckout({ eachKey: { errors: { throw: 'never runs' } } }, 'validation', inputFor('validation', givenCart(400))));
      expect(run.code).to.equal('input_too_large');
      expect(run.inputBytes).to.be.above(MAX_INPUT_BYTES);
      expect(run.message).to.equal(`the input is ${run.inputBytes} bytes as JSON; at most ${MAX_INPUT_BYTES}`);
      expect(ok(runCheckout({}, 'validation', inputFor('validation', givenCart(300)))).inputBytes).to.be.below(MAX_INPUT_BYTES);
    });
  });

  describe('failing securely', () => {
    it('answers error for a program that throws or is not valid, with what went wrong', () => {
      const cases: [unknown, string][] = [
        [{ '+': ['a', 1] }, 'arithmetic or comparison on a value that is not a number'],
        [{ '/': [1, 0] }, 'arithmetic or comparison on a value that is not a number'],
        [{ substr: [5, 1] }, 'string.substr is not a function'],
        [{ reduce: [{ preserve: [] }, { var: 'accumulator' }] }, 'Reduce of empty array with no initial value'],
        [{ eval: 'process.exit(1)' }, 'the program is not valid: program: unknown operator "eval"'],
        [{ try: [{ throw: 'x' }, 1] }, 'the program is not valid: program: unknown operator "try"'],
        [
          { if: [true, 1], and: [] },
          'the program is not valid: program: must be one operator, an object with exactly one key (it has 2); write an object as {"eachKey": {...}} or {"preserve": {...}}',
        ],
      ];
      for (const [program, message] of cases) {
        const run = failure(runCheckout(program, 'coupon', inputFor('coupon')));
        expect(run.code, JSON.stringify(program)).to.equal('error');
        expect(run.message, JSON.stringify(program)).to.equal(message);
      }
    });

    it('answers invalid_output for an answer that sets a price, a total, a tax or an amount, or is not the target’s shape', () => {
      const cases: [CheckoutFunctionTarget, unknown][] = [
        ['shipping', { operations: [{ hide: 'express', price: 0 }] }],
        ['shipping', { operations: [{ rename: { code: 'standard', name: 'Free', price: 0 } }] }],
        ['shipping', { operations: [], total: 0 }],
        ['payment_method', { operations: [{ move: { provider: 'paypal', index: 0, amount: 1 } }] }],
        ['coupon', { decision: 'allow', tax: 0 }],
        ['coupon', { decision: 'discount' }],
        ['validation', { errors: [{ message: 'x', line_price: 1 }] }],
        ['validation', { errors: [{ message: '' }] }],
        ['validation', [{ message: 'a list' }]],
        ['shipping', { operations: Array.from({ length: 51 }, () => ({ hide: 'express' })) }],
      ];
      for (const [target, output] of cases) {
        const run = failure(runCheckout({ preserve: output }, target, inputFor(target)));
        expect(run.code, JSON.stringify(output)).to.equal('invalid_output');
        expect(run.message).to.match(/^output/);
      }
      const price = failure(runCheckout({ preserve: { operations: [{ hide: 'express', price: 0 }] } }, 'shipping', inputFor('shipping')));
      expect(price.message).to.include('output.operations.0');
    });

    it('refuses an answer larger than any valid one without reading it all', () => {
      const program = answer('operations', {
        reduce: [{ var: 'cart.lines' }, { merge: [{ var: 'accumulator' }, { var: 'current' }, { var: 'current' }] }, none],
      });
      const run = failure(runCheckout(program, 'shipping', inputFor('shipping', givenCart(300)), { maxRunMs: 1000 }));
      expect(run.code).to.equal('invalid_output');
      expect(run.message).to.equal('the output holds more than 1000 values; no valid output does');
    });
  });

  describe('no way out of the data', () => {
    it('refuses __proto__, constructor and prototype in a data path, written or computed', () => {
      const programs = [
        { var: '__proto__' },
        { var: 'cart.constructor.name' },
        { var: ['cart.lines.0.__proto__.x', 1] },
        { var: 'settings.prototype' },
        { var: { cat: ['__pro', 'to__'] } },
        { var: { cat: ['cart.', 'constructor'] } },
        { missing: ['cart', { cat: ['construct', 'or'] }] },
        { map: [{ var: 'cart.lines' }, { var: { cat: ['__proto__.', 'x'] } }] },
      ];
      for (const program of programs) {
        const run = failure(runCheckout(program, 'coupon', inputFor('coupon')));
        expect(run.code, JSON.stringify(program)).to.equal('error');
        expect(run.message, JSON.stringify(program)).to.match(/a data path must not name "(__proto__|constructor|prototype)"/);
      }
    });

    it('reads only the data’s own properties: inherited names are not found', () => {
      const program = {
        eachKey: {
          decision: 'refuse',
          message: { cat: [{ var: ['cart.toString', 'none'] }, '|', { var: ['cart.lines.map', 'none'] }, '|', { var: 'cart.coupon_code.length' }] },
        },
      };
      expect(ok(runCheckout(program, 'coupon', inputFor('coupon'))).output.message).to.equal('none|none|6');
      expect(ok(runCheckout(answer('errors', { if: [{ missing: ['cart.hasOwnProperty'] }, none, none] }), 'validation', inputFor('validation'))).ok).to.equal(
        true,
      );
    });

    it('has no operator named after Object.prototype’s members, and changes nothing of it', () => {
      for (const name of ['constructor', 'valueOf', 'toString', 'hasOwnProperty', '__defineGetter__', '__lookupGetter__']) {
        const run = failure(runCheckout(JSON.parse(`{"${name}": ["x"]}`), 'coupon', inputFor('coupon')));
        expect(run.message).to.equal(`the program is not valid: program: unknown operator "${name}"`);
      }
      const polluting = JSON.parse('{"eachKey": {"__proto__": {"preserve": {"polluted": true}}, "decision": "allow"}}');
      expect(failure(runCheckout(polluting, 'coupon', inputFor('coupon'))).message).to.equal('output: Unrecognized key: "__proto__"');
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    });
  });
});
