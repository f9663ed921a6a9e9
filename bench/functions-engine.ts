import { LogicEngine } from 'json-logic-engine';
import { isDeepStrictEqual } from 'node:util';
import { runCheckoutFunction } from '../src/apps/functions/engine.js';
import type { FunctionInputs, ShippingOperation } from '../src/apps/functions/targets.js';
import { percentile } from './support.js';

/**
 * `npm run bench:functions` (docs/extensions.md, Checkout Functions: performance): a realistic
 * shipping program over a 20-line cart, run
 *
 * - by the platform (`runCheckoutFunction`: the input's size and copy, the program's check, the
 *   counted interpreter, the output's schema);
 * - by json-logic-engine as its documentation uses it, the baseline: `new LogicEngine().run`, its
 *   optimising interpreter with every default operator, no counting, no checks;
 * - by the same advice written in TypeScript, for scale;
 *
 * one run at a time, alternating, BENCH_RUNS times each (p50, p99, runs per second, the ratio of
 * throughputs). The first run of a fresh process is reported apart (JIT warm-up).
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 20_000);

const lines = Array.from({ length: 20 }, (_, i) => ({
  variant_id: `var_${i}`,
  product_id: `prod_${i}`,
  quantity: 1 + (i % 3),
  price: 1500 + i * 75,
  line_total: (1500 + i * 75) * (1 + (i % 3)),
  sku: `KILN-${1000 + i}`,
  product_type: i % 5 === 0 ? 'planter' : 'mug',
  vendor: 'Kiln & Co',
  tags: i % 4 === 0 ? ['fragile', 'stoneware'] : ['stoneware'],
}));
const input: FunctionInputs['shipping'] = {
  cart: {
    currency: 'CAD',
    subtotal: lines.reduce((sum, l) => sum + l.line_total, 0),
    lines,
    customer: { tags: ['returning'], orders_count: 7 },
    coupon_code: null,
    shipping_address: { country: 'CA', province: 'QC' },
  },
  settings: { home_country: 'CA', bulky_type: 'planter', max_express_items: 20, free_over: 50000, free_label: 'Free standard shipping' },
  shipping_options: [
    { code: 'standard', name: 'Standard', price: 1200 },
    { code: 'express', name: 'Express', price: 2900 },
    { code: 'overnight', name: 'Overnight', price: 4900 },
    { code: 'pickup', name: 'Pickup in store', price: 0 },
  ],
};

// Express and overnight hidden for a fragile or bulky cart or too many items; standard renamed over
// the free shipping threshold; pickup first for a shopper abroad.
const program = {
  eachKey: {
    operations: {
      merge: [
        {
          if: [
            {
              or: [
                { some: [{ var: 'cart.lines' }, { in: ['fragile', { var: 'tags' }] }] },
                { some: [{ var: 'cart.lines' }, { '==': [{ var: 'product_type' }, { var: '../../settings.bulky_type' }] }] },
                {
                  '>': [
                    { reduce: [{ var: 'cart.lines' }, { '+': [{ var: 'accumulator' }, { var: 'current.quantity' }] }, 0] },
                    { var: 'settings.max_express_items' },
                  ],
                },
              ],
            },
            {
              map: [
                { filter: [{ var: 'shipping_options' }, { in: [{ var: 'code' }, { preserve: ['express', 'overnight'] }] }] },
                { eachKey: { hide: { var: 'code' } } },
              ],
            },
            { preserve: [] },
          ],
        },
        {
          if: [
            { '>=': [{ var: 'cart.subtotal' }, { var: 'settings.free_over' }] },
            { merge: [{ eachKey: { rename: { eachKey: { code: 'standard', name: { var: 'settings.free_label' } } } } }] },
            { preserve: [] },
          ],
        },
        {
          if: [
            { '!=': [{ var: 'cart.shipping_address.country' }, { var: 'settings.home_country' }] },
            { preserve: [{ move: { code: 'pickup', index: 0 } }] },
            { preserve: [] },
          ],
        },
      ],
    },
  },
};

function inTypeScript(i: typeof input): { operations: ShippingOperation[] } {
  const { cart, settings } = i;
  const operations: ShippingOperation[] = [];
  const items = cart.lines.reduce((sum, l) => sum + l.quantity, 0);
  if (
    cart.lines.some((l) => l.tags?.includes('fragile')) ||
    cart.lines.some((l) => l.product_type === settings.bulky_type) ||
    items > Number(settings.max_express_items)
  )
    for (const o of i.shipping_options) if (o.code === 'express' || o.code === 'overnight') operations.push({ hide: o.code });
  if (cart.subtotal >= Number(settings.free_over)) operations.push({ rename: { code: 'standard', name: String(settings.free_label) } });
  if (cart.shipping_address?.country !== settings.home_country) operations.push({ move: { code: 'pickup', index: 0 } });
  return { operations };
}

const first = performance.now();
const cold = runCheckoutFunction(program, 'shipping', input);
const coldMs = performance.now() - first;
if (!cold.ok) throw new Error(`the bench program failed: ${cold.code}: ${cold.message}`);
const library = new LogicEngine();
const expected = inTypeScript(input);
if (!isDeepStrictEqual(cold.output, expected) || !isDeepStrictEqual(library.run(program, input), expected))
  throw new Error(`the three disagree: ${JSON.stringify([cold.output, library.run(program, input), expected])}`);

const platformMs: number[] = [];
const libraryMs: number[] = [];
const typescriptMs: number[] = [];
for (let i = 0; i < 2000; i++) {
  runCheckoutFunction(program, 'shipping', input);
  library.run(program, input);
  inTypeScript(input);
}
let operations = 0;
// A pause of the process (garbage collection, another process on the core) longer than the time
// limit stops a run: counted, not fatal.
const stopped: string[] = [];
for (let i = 0; i < RUNS; i++) {
  let t0 = performance.now();
  const run = runCheckoutFunction(program, 'shipping', input);
  platformMs.push(performance.now() - t0);
  if (run.ok) operations = run.operations;
  else if (run.code === 'time_limit') stopped.push(`${run.durationMs.toFixed(1)} ms`);
  else throw new Error(`run ${i}: ${run.code}: ${run.message}`);
  t0 = performance.now();
  library.run(program, input);
  libraryMs.push(performance.now() - t0);
  t0 = performance.now();
  inTypeScript(input);
  typescriptMs.push(performance.now() - t0);
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const row = (label: string, xs: number[]) =>
  `${label.padEnd(58)} p50 ${percentile(xs, 0.5).toFixed(4).padStart(7)} ms   p99 ${percentile(xs, 0.99).toFixed(4).padStart(7)} ms   ${(xs.length / (sum(xs) / 1000)).toFixed(0).padStart(7)} runs/s`;
console.log(
  `\nA shipping program of ${JSON.stringify(program).length} characters over a 20-line cart (${cold.inputBytes} bytes of input), ${operations} operations, ${expected.operations.length} operations of advice; ${RUNS} runs each, alternating`,
);
console.log(row('platform: runCheckoutFunction (checks, counted interpreter)', platformMs));
console.log(row('baseline: json-logic-engine LogicEngine().run, defaults', libraryMs));
console.log(row('for scale: the same advice in TypeScript', typescriptMs));
console.log(`ratio (platform / json-logic-engine throughput): ${(sum(libraryMs) / sum(platformMs)).toFixed(2)}`);
console.log(`first run in this process (cold): ${coldMs.toFixed(2)} ms`);
console.log(`runs stopped at the time limit by a pause: ${stopped.length} of ${RUNS}${stopped.length ? ` (${stopped.join(', ')})` : ''}`);
