import type { Db } from 'mongodb';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Events } from './events/index.js';
import type { Log } from './log.js';
import type { JobQueue } from './queue.js';

/**
 * The one object handed to everything: config, database, job queue, events, clock, log, and
 * which process this is. Built by the composition root (src/boot.ts); the core knows no domain.
 */
export type Platform = {
  config: Config;
  db: Db;
  jobs: JobQueue;
  events: Events;
  clock: Clock;
  log: Log;
  /**
   * `name`: the process's role (`web`, `worker:webhooks`); `id`: this process among all,
   * `<role>:<host>:<pid>` (`webhooks:host:1234`), the owner of the leases it takes.
   */
  process: { name: string; id: string };
};
