import type { Collection, Db, Document } from 'mongodb';
import type { Platform } from '../../src/platform.js';

/** What runs in place of one collection method: call `real` to reach the database, or throw to fail the step. */
export type Fault = (real: (...args: unknown[]) => Promise<unknown>, args: unknown[]) => Promise<unknown>;

/**
 * Fault injection on the real database: while `during` runs, calls of `method` on `collection`
 * made through `platform.db` go through `fault` (which may throw, as a process dying at that
 * step would leave things, or act between two steps); every other call, and whatever the fault
 * passes on, reaches the real database unchanged. The database is restored afterwards.
 */
export async function withFault<T>(platform: Platform, collection: string, method: keyof Collection, fault: Fault, during: () => Promise<T>): Promise<T> {
  const real = platform.db;
  const wrapped = new Proxy(real, {
    get(target, prop) {
      if (prop === 'collection') {
        return (name: string, options?: object) => {
          const c = target.collection<Document>(name, options);
          return name === collection ? faulty(c, method, fault) : c;
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  (platform as { db: Db }).db = wrapped;
  try {
    return await during();
  } finally {
    (platform as { db: Db }).db = real;
  }
}

function faulty(c: Collection<Document>, method: keyof Collection, fault: Fault): Collection<Document> {
  return new Proxy(c, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function') return value;
      const bound = (value as (...args: unknown[]) => unknown).bind(target);
      return prop === method ? (...args: unknown[]) => fault(bound as (...a: unknown[]) => Promise<unknown>, args) : bound;
    },
  });
}

/** A fault that fails the step, as a crash at that point would leave the data. */
export const crash: Fault = async () => {
  throw new Error('injected fault: the process stopped here');
};

/** A fault armed at the next recording of an event of one type (faultAtEvent). */
export type EventFault = {
  /** Resolves when the fault has been hit (the write before it is done). */
  reached: Promise<void>;
  /** Lets a stalled step go on (the real event is then recorded). */
  release(): void;
  /** Disarms the fault and lets a stalled step go on. */
  restore(): void;
};

/**
 * A fault between two writes of a flow, injected where the flow records an event (each event
 * follows its entity's write): the first `type` event recorded after this call (and matching
 * `match`) either throws instead of being recorded (`throw`: a failing step), or waits until
 * released (`stall`: a process that stopped there, or a slow request). The database and every
 * other step are the real ones.
 */
export function faultAtEvent(
  platform: Platform,
  type: string,
  action: 'throw' | 'stall',
  match: (payload: Record<string, unknown>) => boolean = () => true,
): EventFault {
  const events = platform.events;
  const emit = events.emit;
  let armed = true;
  let hit!: () => void;
  const reached = new Promise<void>((resolve) => (hit = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  events.emit = async (t, storeId, payload, key) => {
    if (armed && t === type && match(payload)) {
      armed = false;
      hit();
      if (action === 'throw') throw new Error(`injected fault at ${type}`);
      await released;
    }
    return emit.call(events, t, storeId, payload, key);
  };
  return {
    reached,
    release,
    restore() {
      events.emit = emit;
      release();
    },
  };
}
