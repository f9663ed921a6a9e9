import { LogicEngine, defaultMethods, splitPath } from 'json-logic-engine';
import { ownValue } from '../../own-keys.js';
import { FORBIDDEN_PATH_SEGMENTS, FUNCTION_OPERATORS, programIssues, type FunctionOperator } from './program.js';
import { OUTPUT_SCHEMAS, type CheckoutFunctionTarget, type FunctionInput, type FunctionOutput } from './targets.js';

/**
 * Runs a Checkout Function's program (docs/extensions.md, Checkout Functions): JSON Logic on
 * json-logic-engine's interpreter (`LogicEngine.run`; never `build`, which generates code), with
 * only the allowlisted operators registered, each wrapped to be counted. A run is bounded before
 * it starts (the input's size) and while it runs (operations and wall time, checked inside the
 * counter, so no program can hold the event loop), and it never throws: whatever goes wrong is a
 * result whose advice the caller drops.
 */

/** The input as JSON, in bytes. */
export const MAX_INPUT_BYTES = 64 * 1024;
/**
 * Operations per run: each operator evaluated and each callback of an iteration counts one, and
 * an operator also counts one for every VALUE_UNIT items or characters of the lists and strings
 * it is given or builds, nested lists included, so a program that grows a value cannot make one
 * operation unbounded.
 */
export const MAX_OPERATIONS = 10_000;
export const VALUE_UNIT = 64;
/** Wall time of the evaluation, in ms. */
export const MAX_RUN_MS = 5;
/** The counter reads the clock once per this many operations. */
export const CLOCK_EVERY = 32;
/**
 * Values in an output (the object, every list, item and property): the largest valid output holds
 * about 300, so a larger one is refused before the schema reads it.
 */
export const MAX_OUTPUT_VALUES = 1000;

export type FunctionLimits = { maxInputBytes: number; maxOperations: number; maxRunMs: number };
export const DEFAULT_FUNCTION_LIMITS: Readonly<FunctionLimits> = Object.freeze({
  maxInputBytes: MAX_INPUT_BYTES,
  maxOperations: MAX_OPERATIONS,
  maxRunMs: MAX_RUN_MS,
});

export const FUNCTION_FAILURES = ['input_too_large', 'operation_limit', 'time_limit', 'error', 'invalid_output'] as const;
export type FunctionFailure = (typeof FUNCTION_FAILURES)[number];

type Measures = { durationMs: number; inputBytes: number; outputBytes: number };
export type FunctionRun<T extends CheckoutFunctionTarget> =
  ({ ok: true; output: FunctionOutput<T>; operations: number } & Measures) | ({ ok: false; code: FunctionFailure; message: string } & Measures);

/**
 * Run `program` for `target` on `input`. On success, `output` is the program's answer as the
 * target's schema parsed it (defaults filled; `null` is `{}`, no advice) and `operations` what
 * the run counted. `durationMs` is the whole call (size check, evaluation, output check).
 */
export function runCheckoutFunction<T extends CheckoutFunctionTarget>(
  program: unknown,
  target: T,
  input: FunctionInput<T>,
  limits: Partial<FunctionLimits> = {},
): FunctionRun<T> {
  const bounds = { ...DEFAULT_FUNCTION_LIMITS, ...limits };
  const started = performance.now();
  let inputBytes = 0;
  let outputBytes = 0;
  const failed = (code: FunctionFailure, message: string): FunctionRun<T> => ({
    ok: false,
    code,
    message,
    durationMs: performance.now() - started,
    inputBytes,
    outputBytes,
  });

  // The program sees plain JSON: a copy, with nothing of the caller's objects but their data.
  let data: unknown;
  try {
    const json = JSON.stringify(input);
    inputBytes = Buffer.byteLength(json, 'utf8');
    if (inputBytes > bounds.maxInputBytes) return failed('input_too_large', `the input is ${inputBytes} bytes as JSON; at most ${bounds.maxInputBytes}`);
    data = JSON.parse(json);
  } catch (err) {
    return failed('error', `the input is not JSON: ${describe(err)}`);
  }
  const issues = programIssues(program, 'program');
  if (issues.length > 0) return failed('error', `the program is not valid: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);

  const meter = new Meter(bounds.maxOperations, performance.now() + bounds.maxRunMs);
  let answer: unknown;
  current = meter;
  try {
    answer = functionEngine().run(program, data);
  } catch (err) {
    if (meter.stopped) return failed(meter.stopped, meter.stopMessage());
    return failed('error', describe(err));
  } finally {
    current = null;
  }
  if (meter.stopped) return failed(meter.stopped, meter.stopMessage()); // a stop the program got past

  if (valuesAbove(answer, MAX_OUTPUT_VALUES)) return failed('invalid_output', `the output holds more than ${MAX_OUTPUT_VALUES} values; no valid output does`);
  const parsed = OUTPUT_SCHEMAS[target].safeParse(answer ?? {});
  if (!parsed.success) {
    outputBytes = jsonBytes(answer);
    return failed('invalid_output', parsed.error.issues.map((i) => `${['output', ...i.path.map(String)].join('.')}: ${i.message}`).join('; '));
  }
  outputBytes = jsonBytes(parsed.data);
  return { ok: true, output: parsed.data as FunctionOutput<T>, operations: meter.operations, durationMs: performance.now() - started, inputBytes, outputBytes };
}

/** Whether a value holds more than `max` values (itself, and every item and property inside), walking at most that many. */
function valuesAbove(value: unknown, max: number): boolean {
  let seen = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (++seen > max) return true;
    if (next === null || typeof next !== 'object') continue;
    if (Array.isArray(next) && seen + pending.length + next.length > max) return true;
    for (const inner of Object.values(next)) pending.push(inner);
  }
  return false;
}

/** A value's size as JSON, or 0 when it has none (a cycle cannot occur, but a deep answer may not stringify). */
function jsonBytes(value: unknown): number {
  try {
    const json = JSON.stringify(value);
    return json === undefined ? 0 : Buffer.byteLength(json, 'utf8');
  } catch {
    return 0;
  }
}

/** The library throws NaN for arithmetic on non-numbers and `{ type }` objects for bad arguments. */
function describe(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === 'number' && Number.isNaN(err)) return 'arithmetic or comparison on a value that is not a number';
  if (err !== null && typeof err === 'object' && 'type' in err) {
    const { type, key } = err as { type: unknown; key?: unknown };
    return key === undefined ? String(type) : `${String(type)}: ${String(key)}`;
  }
  return String(err);
}

class Stop extends Error {}

/** Counts one run's operations and watches its clock; once stopped, every further operation stops again. */
class Meter {
  operations = 0;
  stopped: 'operation_limit' | 'time_limit' | null = null;
  /** The operator whose charge passed the limit. */
  private last = '';
  private nextClock = CLOCK_EVERY;
  constructor(
    private readonly maxOperations: number,
    private readonly deadline: number,
  ) {}

  /** Operations the run may still use before it stops. */
  get left(): number {
    return this.maxOperations - this.operations;
  }

  charge(n: number, operator: string): void {
    if (this.stopped) throw new Stop(this.stopped);
    this.operations += n;
    this.last = operator;
    if (this.operations > this.maxOperations) this.stop('operation_limit');
    if (this.operations >= this.nextClock) {
      this.nextClock = this.operations + CLOCK_EVERY;
      this.checkClock(operator);
    }
  }

  /** Stop the run if its time is up: between operations, and inside one that walks a large value. */
  checkClock(operator: string): void {
    if (performance.now() <= this.deadline) return;
    this.last = operator;
    this.stop('time_limit');
  }

  stopMessage(): string {
    return this.stopped === 'time_limit'
      ? `the program ran out of time after ${this.operations} operations, in ${this.last}`
      : `the program used more than ${this.maxOperations} operations, the last of them in ${this.last}`;
  }

  private stop(reason: 'operation_limit' | 'time_limit'): never {
    this.stopped = reason;
    throw new Stop(reason);
  }
}

/** The run under way. Runs are synchronous, so one process has at most one at a time. */
let current: Meter | null = null;
function meter(): Meter {
  if (!current) throw new Error('a Checkout Function operator ran outside runCheckoutFunction');
  return current;
}

/** Items and characters the size walk counts between two reads of the clock. */
const WALK_CLOCK_EVERY = 4096;

/**
 * What a value costs `operator` beyond its operation: one per VALUE_UNIT items of its lists and
 * characters of its strings, at every depth, a list counted each time it is held: as many as
 * turning it into text would walk (`cat`, a data path, `substr`'s numbers, `in` a string), which
 * the program builds in a few operations by holding one list twice, level after level (issue 36).
 * The walk stops once the cost passes what the run has left, so it never walks more than was paid
 * for, and it reads the clock as it goes. Objects are not walked: as text they are `[object Object]`.
 */
function sizeCost(value: unknown, m: Meter, operator: string): number {
  const most = (m.left + 1) * VALUE_UNIT;
  let size = 0;
  let nextClock = WALK_CLOCK_EVERY;
  const pending: unknown[] = [value];
  while (pending.length > 0 && size <= most) {
    const next = pending.pop();
    if (typeof next === 'string') size += next.length;
    else if (Array.isArray(next)) {
      size += next.length;
      for (const item of next) if (typeof item === 'string' || Array.isArray(item)) pending.push(item);
    }
    if (size >= nextClock) {
      nextClock = size + WALK_CLOCK_EVERY;
      m.checkClock(operator);
    }
  }
  return Math.floor(size / VALUE_UNIT);
}

/** Charge the run for an operator given `args`, before it runs. */
function chargeGiven(operator: string, args: unknown): void {
  const m = meter();
  m.charge(1 + sizeCost(args, m, operator), operator);
}

type Engine = LogicEngine;
type Method = (args: unknown, context: unknown, above: unknown[], engine: Engine) => unknown;
type Registered = { method: Method; lazy: boolean };

/**
 * The library's own operator, wrapped to be counted. An eager operator (its arguments evaluated
 * before it runs) also pays for the size of what it is given and what it answers.
 */
function counted(name: FunctionOperator): Registered {
  const original = (defaultMethods as unknown as Record<string, Method | { method: Method; lazy?: boolean }>)[name];
  if (original === undefined) throw new Error(`json-logic-engine has no operator ${name}`);
  const impl = typeof original === 'function' ? original : original.method;
  const lazy = typeof original === 'function' ? false : original.lazy === true;
  if (lazy)
    return {
      lazy,
      method: (args, context, above, engine) => {
        meter().charge(1, name);
        return impl(args, context, above, engine);
      },
    };
  return {
    lazy,
    method: (args, context, above, engine) => {
      chargeGiven(name, args);
      const result = impl(args, context, above, engine);
      const m = meter();
      m.charge(sizeCost(result, m, name), name);
      return result;
    },
  };
}

/**
 * The iteration operators are the platform's own, with json-logic-engine 5's semantics (the item
 * as the callback's data, `../` reaching the enclosing data, `all` of an empty list false), so
 * that every callback counts whatever the callback is (a literal too) and a list to iterate must
 * be a list: the library's `some` and `all` loop to any object's `length`.
 */
function iteration(name: 'map' | 'filter' | 'all' | 'some' | 'none' | 'reduce'): Registered {
  return {
    lazy: true,
    method: (args, context, above, engine) => {
      meter().charge(1, name);
      if (!Array.isArray(args)) throw new Error(`${name} takes [list, program${name === 'reduce' ? ', initial' : ''}]`);
      const [selector, callback, initial] = args as [unknown, unknown, unknown];
      const found = engine.run(selector, context, { above });
      if (found !== null && found !== undefined && !Array.isArray(found)) throw new Error(`${name} iterates over a list, not ${typeof found}`);
      const items: unknown[] = found ?? [];
      const each = (item: unknown, index: number) => {
        meter().charge(1, name);
        return engine.run(callback, item, { above: [{ iterator: items, index }, context, above] });
      };
      switch (name) {
        case 'map':
          return items.map((item, i) => each(item, i));
        case 'filter':
          return items.filter((item, i) => engine.truthy(each(item, i)));
        case 'all':
          return items.length > 0 && items.every((item, i) => engine.truthy(each(item, i)));
        case 'some':
          return items.some((item, i) => engine.truthy(each(item, i)));
        case 'none':
          return !items.some((item, i) => engine.truthy(each(item, i)));
        case 'reduce': {
          const step = (accumulator: unknown, current: unknown) => {
            meter().charge(1, name);
            return engine.run(callback, { accumulator, current }, { above: [items, context, above] });
          };
          const start = engine.run(initial, context, { above });
          return start === undefined ? items.reduce(step) : items.reduce(step, start);
        }
      }
    },
  };
}

/**
 * `var` and `missing` with json-logic-engine's legacy semantics (dotted paths, `\.` for a dot in a
 * key, `../` to climb out of an iteration, a default), but each step an own property only, and
 * `__proto__`, `constructor` and `prototype` refused: a path computed at run time is checked too.
 */
function lookup(data: unknown, path: unknown): { found: boolean; value: unknown } {
  if (path === undefined || path === null || path === '') return { found: true, value: data };
  let value = data;
  for (const segment of splitPath(String(path))) {
    if (FORBIDDEN_PATH_SEGMENTS.has(segment)) throw new Error(`a data path must not name "${segment}"`);
    // JSON data holds no undefined: an own property that is undefined is none.
    value = value === null || value === undefined ? undefined : ownValue(Object(value) as Record<string, unknown>, segment);
    if (value === undefined) return { found: false, value };
  }
  return { found: value !== undefined, value };
}

const dataOperators = {
  var: {
    lazy: false,
    method: (args, context, above) => {
      chargeGiven('var', args);
      const [start, fallback] = Array.isArray(args) ? (args as [unknown, unknown]) : [args, undefined];
      let path = start;
      let data = context;
      let scopes = above;
      let climbed = 0;
      while (typeof path === 'string' && path.startsWith('../') && climbed < scopes.length) {
        data = scopes[climbed++];
        path = path.substring(3);
        // The library's nesting of scopes: the last one is the scopes around those.
        if (climbed === scopes.length && Array.isArray(data)) {
          climbed = 0;
          scopes = data;
          data = scopes[climbed++];
        }
      }
      const { found, value } = lookup(data, path);
      return found ? value : (fallback ?? null);
    },
  },
  missing: {
    lazy: false,
    method: (args, context) => {
      chargeGiven('missing', args);
      return (args as unknown[]).filter((path) => !lookup(context, path).found);
    },
  },
  missing_some: {
    lazy: false,
    method: (args, context) => {
      const [need, paths] = args as [unknown, unknown];
      if (!Array.isArray(paths)) throw new Error('missing_some takes [count, list of paths]');
      chargeGiven('missing_some', paths);
      const missing = paths.filter((path) => !lookup(context, path).found);
      return paths.length - missing.length >= Number(need) ? [] : missing;
    },
  },
} satisfies Record<string, Registered>;

const OWN: ReadonlySet<FunctionOperator> = new Set(['map', 'filter', 'all', 'some', 'none', 'reduce', 'var', 'missing', 'missing_some']);

function createEngine(): Engine {
  const engine = new LogicEngine({}, { disableInline: true, disableInterpretedOptimization: true });
  for (const name of Object.values(FUNCTION_OPERATORS).flat()) {
    if (!OWN.has(name)) engine.addMethod(name, counted(name));
  }
  for (const name of ['map', 'filter', 'all', 'some', 'none', 'reduce'] as const) engine.addMethod(name, iteration(name));
  for (const [name, registered] of Object.entries(dataOperators)) engine.addMethod(name, registered as Registered);
  // The engine finds operators by `methods[name]`: with no prototype, `constructor` or `toString` is no operator either.
  engine.methods = Object.assign(Object.create(null), engine.methods);
  return engine;
}

let engine: Engine | null = null;
/** One engine per process, made at the first run: it holds no state of a run but the meter above. */
function functionEngine(): Engine {
  return (engine ??= createEngine());
}
