import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { runCheckoutFunction } from '../../src/apps/functions/engine.js';
import { CHECKOUT_FUNCTION_TARGETS, type CheckoutFunctionTarget, type FunctionCart, type FunctionSettings } from '../../src/apps/functions/targets.js';

const DOCS = ['docs/apps.md', 'docs/extensions.md'];

/** Every JSON object written in a fenced block of `markdown` (a block, a request body, a heredoc), outermost first. */
function jsonObjectsIn(markdown: string): unknown[] {
  const found: unknown[] = [];
  for (const [, block] of markdown.matchAll(/```[^\n]*\n([\s\S]*?)```/g)) {
    for (let start = block!.indexOf('{'); start >= 0;) {
      const end = closingBrace(block!, start);
      let parsed: unknown;
      try {
        parsed = end < 0 ? undefined : JSON.parse(block!.slice(start, end + 1));
      } catch {
        parsed = undefined;
      }
      if (parsed !== undefined) found.push(parsed);
      start = block!.indexOf('{', parsed === undefined ? start + 1 : end + 1);
    }
  }
  return found;
}

/** Where the object opened at `start` closes, strings skipped; -1 when it does not. */
function closingBrace(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}

type DocFunction = { handle: string; target: CheckoutFunctionTarget; program: unknown; settings: FunctionSettings };

/** The Checkout Function extensions inside a value, however deep (a manifest's `extensions`, a request's body). */
function functionsIn(value: unknown, into: DocFunction[] = []): DocFunction[] {
  if (Array.isArray(value)) value.forEach((v) => functionsIn(v, into));
  else if (value !== null && typeof value === 'object') {
    const o = value as Record<string, any>;
    if (o.kind === 'checkout_function') into.push({ handle: o.handle, target: o.target, program: o.config?.program, settings: o.config?.settings ?? {} });
    else Object.values(o).forEach((v) => functionsIn(v, into));
  }
  return into;
}

/**
 * Every Checkout Function the docs show is a fixture (issue 36): a program that a partner copies
 * from docs/apps.md or docs/extensions.md must run, on the input extensions.md documents and on a
 * guest's cart with no address and no code, and answer advice the checkout takes, never
 * `failed_securely`.
 */
describe('Checkout Functions in the docs (docs/apps.md, docs/extensions.md)', () => {
  const extensions = readFileSync('docs/extensions.md', 'utf8');
  const documented = JSON.parse(/Every program gets:\n\n```json\n([\s\S]*?)```/.exec(extensions)![1]!) as { cart: FunctionCart };
  const carts: [string, FunctionCart][] = [
    ['the documented cart', documented.cart],
    ['a guest’s cart with no address and no code', { ...documented.cart, customer: null, shipping_address: null, coupon_code: null }],
  ];
  const extras = {
    shipping: {
      shipping_options: [
        { code: 'standard', name: 'Standard', price: 900 },
        { code: 'express', name: 'Express', price: 2500 },
        { code: 'pickup', name: 'Pickup in store', price: 0 },
      ],
    },
    payment_method: {
      payment_methods: [
        { provider: 'manual', name: 'Manual payment' },
        { provider: 'sandbox', name: 'Sandbox' },
      ],
    },
    coupon: {},
    validation: {},
  };

  for (const doc of DOCS) {
    it(`${doc}: finds every checkout_function the page shows, and each runs ok on every cart`, () => {
      const markdown = readFileSync(doc, 'utf8');
      const functions = jsonObjectsIn(markdown).flatMap((v) => functionsIn(v));
      // Each one the page writes is found: none is left out because it did not parse.
      expect(functions.length).to.equal([...markdown.matchAll(/"kind"\s*:\s*"checkout_function"/g)].length);
      expect(functions.length).to.be.at.least(1);
      for (const f of functions) {
        expect(CHECKOUT_FUNCTION_TARGETS, f.handle).to.include(f.target);
        for (const [name, cart] of carts) {
          // A second of clock: what is checked is the answer, and a busy machine may pause a run past its 5 ms.
          const run = runCheckoutFunction(f.program, f.target, { cart, settings: f.settings, ...extras[f.target] } as never, { maxRunMs: 1000 });
          expect(run.ok, `${doc} ${f.handle} on ${name}: ${JSON.stringify(run)}`).to.equal(true);
        }
      }
    });
  }

  it('covers every target across the two pages', () => {
    const targets = new Set(DOCS.flatMap((doc) => jsonObjectsIn(readFileSync(doc, 'utf8')).flatMap((v) => functionsIn(v).map((f) => f.target))));
    expect([...targets].sort()).to.deep.equal([...CHECKOUT_FUNCTION_TARGETS].sort());
  });
});
