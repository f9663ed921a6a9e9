import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort, type ResourceLimits } from 'node:worker_threads';

/**
 * A pool of worker threads for work whose cost grows with untrusted input (theme Liquid), so it
 * never runs on the event loop that answers requests (docs/processes.md, Threads).
 *
 * - A task borrows one thread for a conversation (`Lease`): it sends messages and waits for each
 *   answer with a deadline. A thread that misses a deadline is terminated (`Worker.terminate`,
 *   which stops even a single long synchronous call) and replaced; the wait rejects with
 *   `ThreadStopped`. A thread that dies (its heap past `resourceLimits`, an uncaught error) does
 *   the same to the task it ran.
 * - Fairness: one tenant (a store) has at most `perTenant` tasks running at once, so one store's
 *   pages cannot occupy every thread; its other tasks wait (at most `maxQueuedPerTenant`, for at
 *   most `maxWaitMs`) while other tenants' tasks take the free threads, first come first served.
 *   Past either bound the task is refused with `PoolBusy` at once.
 * - Affinity: a task may name a key (a theme version) it would rather run where it ran before;
 *   an idle thread that holds it is preferred (`Lease.holds`), so a thread's caches stay warm.
 *
 * Threads start when first needed, up to `size`, and never keep the process alive (`unref`).
 */
export type ThreadPoolOptions = {
  /** Names the threads (`<name>-<n>`) in diagnostics. */
  name: string;
  /** The thread's entry module (compiled `.js`). */
  script: URL;
  /** Given to every thread as its `workerData`, with `port` (the channel its answers go through). */
  workerData?: Record<string, unknown>;
  size: number;
  resourceLimits: ResourceLimits;
  perTenant: number;
  maxQueuedPerTenant: number;
  maxWaitMs: number;
  /** Keys a thread is remembered to hold (the affinity hint), most recent first. */
  holdsPerThread?: number;
  /** Told when a thread is stopped or dies. */
  onThreadEnd?: (info: { thread: string; reason: ThreadStopped['reason']; detail: string }) => void;
};

/** The thread running a task was stopped: it missed a deadline, died, or the pool closed. */
export class ThreadStopped extends Error {
  constructor(
    readonly reason: 'deadline' | 'crashed' | 'closed',
    message: string,
  ) {
    super(message);
    this.name = 'ThreadStopped';
  }
}

/** The pool would not take the task: the tenant has too many waiting, or it waited too long. */
export class PoolBusy extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PoolBusy';
  }
}

/** One thread lent to one task. */
export type Lease = {
  /** Keys this thread is remembered to hold (a hint: the thread may have let one go). */
  readonly holds: ReadonlySet<string>;
  send(message: unknown): void;
  /** The thread's next message; if none comes within `timeoutMs`, the thread is terminated and this rejects with ThreadStopped. */
  next<T>(timeoutMs: number): Promise<T>;
  /** Remember that this thread holds `key`. */
  remember(key: string): void;
};

type Waiter = { resolve(message: unknown): void; reject(err: Error): void; timer: NodeJS.Timeout | null };

type Thread = {
  name: string;
  worker: Worker;
  port: MessagePort;
  inbox: unknown[];
  waiter: Waiter | null;
  busy: boolean;
  ended: boolean;
  holds: Set<string>;
};

type Pending = { tenant: string; affinity: string | null; start(thread: Thread): void; fail(err: Error): void; timer: NodeJS.Timeout };

export class ThreadPool {
  private readonly threads: Thread[] = [];
  private readonly queue: Pending[] = [];
  private readonly running = new Map<string, number>();
  private readonly queued = new Map<string, number>();
  private started = 0;
  private closed = false;

  constructor(private readonly options: ThreadPoolOptions) {}

  /** Threads alive now. */
  get size(): number {
    return this.threads.length;
  }

  /** Run `task` on a thread for `tenant`, preferring one that holds `affinity`. */
  run<R>(tenant: string, affinity: string | null, task: (lease: Lease) => Promise<R>): Promise<R> {
    if (this.closed) return Promise.reject(new ThreadStopped('closed', 'the thread pool is closed'));
    if ((this.queued.get(tenant) ?? 0) >= this.options.maxQueuedPerTenant) {
      return Promise.reject(new PoolBusy(`${this.options.maxQueuedPerTenant} tasks of this tenant are already waiting for a thread`));
    }
    return new Promise<R>((resolve, reject) => {
      const pending: Pending = {
        tenant,
        affinity,
        start: (thread) => {
          this.count(this.running, tenant, +1);
          task(this.lease(thread))
            .then(resolve, reject)
            .finally(() => this.finish(thread, tenant));
        },
        fail: reject,
        timer: setTimeout(() => {
          if (this.dequeue(pending)) reject(new PoolBusy(`no thread was free for ${this.options.maxWaitMs} ms`));
        }, this.options.maxWaitMs),
      };
      pending.timer.unref();
      this.queue.push(pending);
      this.count(this.queued, tenant, +1);
      this.schedule();
    });
  }

  /** Terminate every thread and refuse what waits. */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) {
      clearTimeout(pending.timer);
      pending.fail(new ThreadStopped('closed', 'the thread pool is closed'));
    }
    this.queued.clear();
    await Promise.all([...this.threads].map((t) => this.end(t, 'closed', 'the thread pool is closed')));
  }

  private schedule(): void {
    for (let i = 0; i < this.queue.length;) {
      const pending = this.queue[i]!;
      if ((this.running.get(pending.tenant) ?? 0) >= this.options.perTenant) {
        i++;
        continue;
      }
      const thread = this.idleThread(pending.affinity);
      if (!thread) return;
      this.queue.splice(i, 1);
      clearTimeout(pending.timer);
      this.count(this.queued, pending.tenant, -1);
      thread.busy = true;
      pending.start(thread);
    }
  }

  private idleThread(affinity: string | null): Thread | null {
    const idle = this.threads.filter((t) => !t.busy && !t.ended);
    const warm = affinity === null ? undefined : idle.find((t) => t.holds.has(affinity));
    if (warm) return warm;
    // A key no idle thread holds goes to a new thread while the pool may grow, so keys spread over threads.
    if (this.threads.length < this.options.size) return this.spawn();
    return idle[0] ?? null;
  }

  private spawn(): Thread {
    const { port1, port2 } = new MessageChannel();
    const name = `${this.options.name}-${++this.started}`;
    const worker = new Worker(this.options.script, {
      name,
      workerData: { ...this.options.workerData, port: port2 },
      transferList: [port2],
      resourceLimits: this.options.resourceLimits,
    });
    const thread: Thread = { name, worker, port: port1, inbox: [], waiter: null, busy: false, ended: false, holds: new Set() };
    port1.on('message', (message: unknown) => this.deliver(thread, message));
    worker.on('error', (err) => void this.end(thread, 'crashed', err.message));
    worker.on('exit', (code) => void this.end(thread, 'crashed', `the thread exited (code ${code})`));
    worker.unref();
    port1.unref();
    this.threads.push(thread);
    return thread;
  }

  private lease(thread: Thread): Lease {
    const limit = this.options.holdsPerThread ?? 64;
    return {
      holds: thread.holds,
      send: (message) => {
        if (!thread.ended) thread.worker.postMessage(message);
      },
      next: <T>(timeoutMs: number) =>
        new Promise<T>((resolve, reject) => {
          if (thread.ended) return reject(new ThreadStopped('crashed', 'the thread has ended'));
          if (thread.inbox.length > 0) return resolve(thread.inbox.shift() as T);
          const waiter: Waiter = { resolve: resolve as (m: unknown) => void, reject, timer: null };
          waiter.timer = setTimeout(
            () => {
              // A message the thread sent in time may still be queued behind this timer: take it first.
              const late = receiveMessageOnPort(thread.port);
              thread.waiter = null;
              if (late) return resolve(late.message as T);
              reject(new ThreadStopped('deadline', `the thread did not answer within ${timeoutMs} ms`));
              void this.end(thread, 'deadline', `no answer within ${timeoutMs} ms`);
            },
            Math.max(0, timeoutMs),
          );
          thread.waiter = waiter;
        }),
      remember: (key) => {
        thread.holds.delete(key);
        thread.holds.add(key);
        if (thread.holds.size > limit) thread.holds.delete(thread.holds.values().next().value!);
      },
    };
  }

  private deliver(thread: Thread, message: unknown): void {
    const waiter = thread.waiter;
    if (!waiter) return void thread.inbox.push(message);
    thread.waiter = null;
    if (waiter.timer) clearTimeout(waiter.timer);
    waiter.resolve(message);
  }

  private finish(thread: Thread, tenant: string): void {
    this.count(this.running, tenant, -1);
    thread.busy = false;
    thread.inbox.length = 0;
    this.schedule();
  }

  private async end(thread: Thread, reason: ThreadStopped['reason'], detail: string): Promise<void> {
    if (thread.ended) return;
    thread.ended = true;
    const index = this.threads.indexOf(thread);
    if (index >= 0) this.threads.splice(index, 1);
    const waiter = thread.waiter;
    thread.waiter = null;
    if (waiter) {
      if (waiter.timer) clearTimeout(waiter.timer);
      waiter.reject(new ThreadStopped(reason, `the thread ${reason === 'crashed' ? 'died' : 'was stopped'}: ${detail}`));
    }
    if (reason !== 'closed') this.options.onThreadEnd?.({ thread: thread.name, reason, detail });
    thread.port.close();
    await thread.worker.terminate().catch(() => undefined);
    // A thread's place is free again: what waits may start on a new one.
    if (!this.closed) this.schedule();
  }

  private dequeue(pending: Pending): boolean {
    const index = this.queue.indexOf(pending);
    if (index < 0) return false;
    this.queue.splice(index, 1);
    this.count(this.queued, pending.tenant, -1);
    return true;
  }

  private count(counts: Map<string, number>, tenant: string, delta: number): void {
    const n = (counts.get(tenant) ?? 0) + delta;
    if (n > 0) counts.set(tenant, n);
    else counts.delete(tenant);
  }
}
