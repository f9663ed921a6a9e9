import { PlatformError } from '../../errors.js';
import type { Log } from '../../log.js';
import type { Platform } from '../../platform.js';
import { PoolBusy, ThreadPool, ThreadStopped } from '../../threads/pool.js';
import { DEFAULT_FUNCTION_LIMITS, type FunctionLimits, type FunctionRun } from './engine.js';
import type { FunctionRunRequest, FunctionThreadRequest } from './function-thread.js';
import type { CheckoutFunctionTarget } from './targets.js';

/**
 * Where Checkout Functions run (docs/extensions.md, Where functions run): in the core's pool of
 * worker threads (src/threads/pool.ts), as Liquid pages are rendered, never on the event loop that
 * answers every store's requests. The engine bounds each run by its operations and its clock; the
 * thread is the backstop that needs no proof: a run whose answer does not come within its time
 * and a grace is stopped by terminating its thread, which stops even a single long operation.
 * One store's checkouts take at most half the threads, so a store whose functions are slow (or
 * hostile) waits for its own share while other stores' checkouts run.
 */

/** Function threads per web process: one store's checkouts hold at most one of them. */
export const FUNCTION_THREADS = 2;
/** How long past a run's own time the web process waits for its answer before stopping its thread. */
export const STOP_GRACE_MS = 100;
/** A new thread's first answer may also take its start (loading the engine and zod). */
export const THREAD_START_MS = 2000;
/**
 * A store's checkouts that may wait for its share of the threads, and for how long. A checkout's
 * runs take a thread for a millisecond or less, so a store's burst (a sale: hundreds at once)
 * waits its turn; past either bound the checkout is refused.
 */
export const MAX_WAITING_CHECKOUTS = 256;
export const MAX_WAIT_MS = 3000;
/** What the pool remembers a warm thread holds: the engine, loaded. */
const ENGINE = 'engine';

export type FunctionRunner = {
  /**
   * Run a checkout's functions, in order, on one of the store's share of the threads: each answers
   * as runCheckoutFunction does. A run whose thread was stopped fails `time_limit` (or `error` when
   * the thread died) and the next runs go on in another thread. When MAX_WAITING_CHECKOUTS of the
   * store's checkouts already wait, or this one waited MAX_WAIT_MS, `unavailable` (503
   * `checkout_functions_busy`).
   */
  run(storeId: string, requests: readonly FunctionRunRequest[], limits?: FunctionLimits): Promise<FunctionRun<CheckoutFunctionTarget>[]>;
  /** Threads alive, and threads stopped or dead so far. */
  stats(): { threads: number; stopped: number };
  close(): Promise<void>;
};

export function createFunctionRunner(options: { threads?: number; log?: Log } = {}): FunctionRunner {
  const size = options.threads ?? FUNCTION_THREADS;
  let stopped = 0;
  const pool = new ThreadPool({
    name: 'function',
    script: new URL('./function-thread.js', import.meta.url),
    size,
    // A run's values are bounded by its operations (a few MB at most): the limit catches anything else.
    resourceLimits: { maxOldGenerationSizeMb: 128, stackSizeMb: 4 },
    perTenant: Math.max(1, Math.floor(size / 2)),
    maxQueuedPerTenant: MAX_WAITING_CHECKOUTS,
    maxWaitMs: MAX_WAIT_MS,
    onThreadEnd: (info) => {
      stopped++;
      options.log?.warn({ event: 'app_function.thread_stopped', thread: info.thread, reason: info.reason, detail: info.detail });
    },
  });

  async function run(storeId: string, requests: readonly FunctionRunRequest[], limits = DEFAULT_FUNCTION_LIMITS) {
    const runs: FunctionRun<CheckoutFunctionTarget>[] = [];
    /** When the thread's last answer came (or the task started): a stopped run's duration is counted from there. */
    let since = performance.now();
    while (runs.length < requests.length) {
      try {
        await pool.run(storeId, ENGINE, async (lease) => {
          const first = runs.length;
          since = performance.now();
          lease.send({ runs: requests.slice(first), limits } satisfies FunctionThreadRequest);
          while (runs.length < requests.length) {
            const start = runs.length === first && !lease.holds.has(ENGINE) ? THREAD_START_MS : 0;
            runs.push(await lease.next<FunctionRun<CheckoutFunctionTarget>>(limits.maxRunMs + STOP_GRACE_MS + start));
            lease.remember(ENGINE);
            since = performance.now();
          }
        });
      } catch (err) {
        if (err instanceof PoolBusy)
          throw new PlatformError(
            'unavailable',
            'checkout_functions_busy',
            "This store's checkouts are running more Checkout Functions than it may at once; try again in a moment",
            {
              retryAfterSeconds: 1,
            },
          );
        if (!(err instanceof ThreadStopped) || err.reason === 'closed') throw err;
        runs.push(stoppedRun(err, requests[runs.length]!, performance.now() - since));
      }
    }
    return runs;
  }

  return { run, stats: () => ({ threads: pool.size, stopped }), close: () => pool.close() };
}

/** The run whose thread was stopped (it did not answer in time) or died: it gives no advice. */
function stoppedRun(err: ThreadStopped, request: FunctionRunRequest, durationMs: number): FunctionRun<CheckoutFunctionTarget> {
  const deadline = err.reason === 'deadline';
  return {
    ok: false,
    code: deadline ? 'time_limit' : 'error',
    message: deadline ? `the run was stopped with its thread: ${err.message}` : `the run's thread died: ${err.message}`,
    durationMs,
    inputBytes: Buffer.byteLength(JSON.stringify(request.input), 'utf8'),
    outputBytes: 0,
  };
}

/** Each platform's runner (one per process; tests open several platforms). */
const runners = new WeakMap<Platform, FunctionRunner>();

export function functionRunnerOf(platform: Platform): FunctionRunner {
  let runner = runners.get(platform);
  if (!runner) runners.set(platform, (runner = createFunctionRunner({ log: platform.log })));
  return runner;
}

/** Stop the platform's function threads, if it started any. */
export async function closeFunctionRunner(platform: Platform): Promise<void> {
  const runner = runners.get(platform);
  runners.delete(platform);
  await runner?.close();
}
