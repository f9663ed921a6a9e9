import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { runCheckoutFunction, type FunctionLimits, type FunctionRun } from './engine.js';
import type { CheckoutFunctionTarget, FunctionInput } from './targets.js';

/**
 * A function thread (docs/extensions.md, Where functions run): started by the web process's pool
 * (threads.ts), it runs one checkout's functions at a time with the engine and answers each run
 * as it ends, so the web process can stop it between two. It imports the engine and nothing of
 * the platform: no domain, no database, no HTTP.
 */

/** One function's run: its program, its target and the input of that target. */
export type FunctionRunRequest = { [T in CheckoutFunctionTarget]: { program: unknown; target: T; input: FunctionInput<T> } }[CheckoutFunctionTarget];

/** From the web process: a checkout's runs, in order. The thread answers each with its FunctionRun. */
export type FunctionThreadRequest = { runs: FunctionRunRequest[]; limits: FunctionLimits };

const port = (workerData as { port: MessagePort }).port;

// The engine's first run compiles its code (a few ms): done here, in the thread's start, rather than in a checkout's first run.
runCheckoutFunction(
  { eachKey: { errors: { map: [{ var: 'cart.lines' }, { eachKey: { message: { cat: ['At most ', { var: 'quantity' }] } } }] } } },
  'validation',
  {
    cart: { currency: 'CAD', subtotal: 0, lines: [], customer: null, coupon_code: null, shipping_address: null },
    settings: {},
  },
);

parentPort!.on('message', ({ runs, limits }: FunctionThreadRequest) => {
  for (const { program, target, input } of runs)
    port.postMessage(runCheckoutFunction(program, target, input as FunctionInput<typeof target>, limits) satisfies FunctionRun<CheckoutFunctionTarget>);
});
