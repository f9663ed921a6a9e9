import { expect } from 'chai';
import { DEFAULT_FUNCTION_LIMITS, runCheckoutFunction } from '../../src/apps/functions/engine.js';
import type { FunctionRunRequest } from '../../src/apps/functions/function-thread.js';
import { createFunctionRunner, MAX_WAITING_CHECKOUTS, type FunctionRunner } from '../../src/apps/functions/threads.js';
import { PlatformError } from '../../src/errors.js';
import { givenCart } from '../helpers/functions.js';
import { compiledImports } from '../helpers/imports.js';

/** A validation request of `program` on a cart of `lines` lines. */
const validation = (program: unknown, lines = 3): FunctionRunRequest => ({
  program,
  target: 'validation',
  input: { cart: givenCart(lines), settings: { max_quantity: 2 } },
});

/** An error for each line over the maximum quantity: a few dozen operations. */
const MAX_QUANTITY = {
  eachKey: {
    errors: {
      map: [
        { filter: [{ var: 'cart.lines' }, { '>': [{ var: 'quantity' }, { var: '../../settings.max_quantity' }] }] },
        { eachKey: { message: { cat: ['At most 2 of ', { var: 'sku' }] } } },
      ],
    },
  },
};
/**
 * 300⁴ callbacks of nothing: as long as its limits let it run, one small operation at a time, in
 * constant memory (`all` keeps no list), so what stops it is its clock or its thread's deadline,
 * never its heap, however slow or fast the machine.
 */
const LOOPS = {
  eachKey: {
    errors: {
      map: [
        { var: 'cart.lines' },
        { all: [{ var: '../../cart.lines' }, { all: [{ var: '../../../../cart.lines' }, { all: [{ var: '../../../../../../cart.lines' }, true] }] }] },
      ],
    },
  },
};
/** A list doubled at each of 300 lines: 2^300 items if it could be held, past any thread's heap long before. */
const DOUBLING = { eachKey: { errors: { reduce: [{ var: 'cart.lines' }, { merge: [{ var: 'accumulator' }, { var: 'accumulator' }] }, { preserve: [1] }] } } };
/** A second of clock: a busy machine may pause a run past its 5 ms, and these tests read answers, not times. */
const calm = { ...DEFAULT_FUNCTION_LIMITS, maxRunMs: 1000 };
/** The operation limit lifted, as no function has it: what stops the run is then its clock, or its thread. */
const lifted = (maxRunMs: number) => ({ maxInputBytes: 64 * 1024, maxOperations: 1e12, maxRunMs });

/**
 * Where Checkout Functions run (src/apps/functions/threads.ts; docs/extensions.md, Where
 * functions run): in the core's thread pool, each run's answer awaited within its time and a
 * grace, one store's checkouts on at most half the threads.
 */
describe('Checkout Functions: the function threads', () => {
  const runners: FunctionRunner[] = [];
  const runner = () => {
    const made = createFunctionRunner({ threads: 2 });
    runners.push(made);
    return made;
  };
  after(() => Promise.all(runners.map((r) => r.close())));

  it('runs a checkout’s functions in a thread, in order, each answering what the engine answers', async () => {
    const requests: FunctionRunRequest[] = [
      validation(MAX_QUANTITY),
      { program: { eachKey: { decision: 'refuse' } }, target: 'coupon', input: { cart: givenCart(), settings: {} } },
      validation({ '+': ['a', 1] }),
    ];
    const runs = await runner().run('store-a', requests, calm);
    const strip = ({ durationMs, ...rest }: { durationMs: number }) => (expect(durationMs).to.be.a('number'), rest);
    expect(runs.map(strip)).to.deep.equal(requests.map((r) => strip(runCheckoutFunction(r.program, r.target, r.input as never, calm))));
    expect(runs.map((r) => r.ok)).to.deep.equal([true, true, false]);
  });

  it('records a run whose thread died (its heap past the limit, the operation limit lifted) as error, and runs the checkout’s next function in another thread', async () => {
    const functions = runner();
    const runs = await functions.run('store-a', [validation(MAX_QUANTITY), validation(DOUBLING, 300), validation(MAX_QUANTITY)], lifted(60_000));
    expect(runs.map((r) => (r.ok ? 'ok' : r.code))).to.deep.equal(['ok', 'error', 'ok']);
    const died = runs[1]!;
    expect(!died.ok && died.message).to.match(/^the run's thread died: /);
    expect(died.inputBytes).to.equal(Buffer.byteLength(JSON.stringify(validation(DOUBLING, 300).input)));
    expect(functions.stats().stopped).to.equal(1);
  });

  it('gives one store one thread of two: another store’s checkout runs beside its long runs and ends first, and the store’s second checkout waits for its first', async () => {
    const functions = runner();
    // Both threads started and warm (two stores at once take one each), so what follows waits for no thread's start.
    await Promise.all(['warm-1', 'warm-2'].map((store) => functions.run(store, [validation(MAX_QUANTITY)])));
    expect(functions.stats().threads).to.equal(2);
    const ended: string[] = [];
    // Each stops at 1.5 s by its clock (the second waits that long for the store's thread: less than the 3 s a checkout may wait).
    const long = (name: string) => functions.run('slow-store', [validation(LOOPS, 300)], lifted(1500)).then((runs) => (ended.push(name), runs));
    const first = long('slow 1');
    const second = long('slow 2');
    const quick = functions.run('quick-store', [validation(MAX_QUANTITY)], calm).then((runs) => (ended.push('quick'), runs));
    const [a, b, q] = await Promise.all([first, second, quick]);
    expect(ended).to.deep.equal(['quick', 'slow 1', 'slow 2']);
    expect(q[0]!.ok).to.equal(true);
    for (const runs of [a, b]) expect(runs.map((r) => !r.ok && r.code)).to.deep.equal(['time_limit']);
  });

  it('refuses a store’s checkout when 256 of its checkouts already wait for its share: 503 checkout_functions_busy, Retry-After 1', async () => {
    const functions = runner();
    // One runs and 256 wait; the next is refused before it waits (those waiting are refused after 3 s).
    const long = validation(LOOPS, 300);
    const held = Array.from({ length: 1 + MAX_WAITING_CHECKOUTS }, () => functions.run('flooding-store', [long], lifted(2000)).catch((err: unknown) => err));
    const refused = await functions.run('flooding-store', [validation(MAX_QUANTITY)]).catch((err: unknown) => err);
    expect(refused).to.be.instanceOf(PlatformError);
    expect(refused).to.include({ kind: 'unavailable', code: 'checkout_functions_busy' });
    expect((refused as PlatformError).extra.retryAfterSeconds).to.equal(1);
    const outcomes = await Promise.all(held);
    expect(outcomes.filter((o) => o instanceof PlatformError && o.code === 'checkout_functions_busy').length).to.be.at.least(1);
  });

  it('starts function threads light: their code imports the engine, json-logic-engine and zod, and nothing of the platform', () => {
    const { files, packages } = compiledImports('apps/functions/function-thread.js');
    expect(
      files.filter((f) => !f.startsWith('apps/functions/') && f !== 'own-keys.js'),
      'files of src/ outside the functions and their pure helpers',
    ).to.deep.equal([]);
    expect(files).to.not.include('apps/functions/threads.js');
    expect(packages).to.deep.equal(['json-logic-engine', 'worker_threads', 'zod']);
  });
});
