import { parentPort, workerData, type MessagePort } from 'node:worker_threads';

/**
 * A thread for test/platform/thread-pool.test.ts: echoes, spins in one synchronous call, holds
 * (blocked until the test sets the shared flag: no clock decides when it ends), or allocates
 * without end.
 */
export type PoolThreadRequest = { echo: unknown } | { spinMs: number } | { hold: Int32Array } | { allocate: true };

const port = (workerData as { port: MessagePort }).port;
const kept: unknown[] = [];

parentPort!.on('message', (request: PoolThreadRequest) => {
  if ('echo' in request) return port.postMessage(request.echo);
  if ('spinMs' in request) {
    const until = Date.now() + request.spinMs;
    while (Date.now() < until); // one synchronous call: nothing cooperative can stop it
    return port.postMessage('spun');
  }
  if ('hold' in request) {
    Atomics.wait(request.hold, 0, 0);
    return port.postMessage('released');
  }
  for (;;) kept.push(new Array(1_000_000).fill(kept.length));
});
