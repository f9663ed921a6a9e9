import type { Db, MongoClient } from 'mongodb';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { connectDatabase, ensureIndexes, type IndexDeclaration } from './db.js';
import { createEvents, eventIndexes, type Events } from './events/index.js';
import { createLog, type Log } from './log.js';
import { createQueue, type JobQueue } from './queue.js';
import { authIndexes } from './auth/index.js';
import { storeIndexes } from './stores/index.js';
import { messageIndexes } from './messages/index.js';
import { rateLimitIndexes } from './ratelimit/index.js';
import { idempotencyIndexes } from './idempotency/index.js';
import { catalogIndexes } from './catalog/index.js';
import { inventoryIndexes } from './inventory/index.js';
import { giftCardIndexes } from './giftcards/index.js';
import { couponIndexes } from './coupons/index.js';
import { customerIndexes } from './customers/index.js';
import { formSubmissionIndexes } from './forms/index.js';
import { mediaIndexes } from './media/index.js';
import { orderIndexes } from './orders/index.js';
import { taxIndexes } from './taxes/index.js';
import { webhookIndexes } from './webhooks/store.js';
import { announceEvents } from './webhooks/wake.js';
import { paymentIndexes } from './payments/index.js';
import { reviewIndexes } from './reviews/index.js';

/** The one object handed to everything: config, database, job queue, events, clock, log. */
export type Platform = {
  config: Config;
  db: Db;
  jobs: JobQueue;
  events: Events;
  clock: Clock;
  log: Log;
};

/** Every collection's indexes, each declared beside the code that owns the collection. */
const INDEXES: readonly IndexDeclaration[] = [
  ...eventIndexes,
  ...authIndexes,
  ...storeIndexes,
  ...messageIndexes,
  ...rateLimitIndexes,
  ...idempotencyIndexes,
  ...catalogIndexes,
  ...inventoryIndexes,
  ...giftCardIndexes,
  ...couponIndexes,
  ...customerIndexes,
  ...formSubmissionIndexes,
  ...mediaIndexes,
  ...orderIndexes,
  ...taxIndexes,
  ...webhookIndexes,
  ...paymentIndexes,
  ...reviewIndexes,
];

export type OpenPlatform = { platform: Platform; client: MongoClient; close(): Promise<void> };

/**
 * Connect (failing fast with DatabaseUnavailableError), create indexes, and build the platform.
 * `processName` names the process in logs and in Agenda's lock owner.
 */
export async function openPlatform(config: Config, processName: string, options: { clock?: Clock; log?: Log } = {}): Promise<OpenPlatform> {
  const log = options.log ?? createLog(config.logLevel, { process: processName });
  const clock = options.clock ?? systemClock;
  if (!config.mongo.url) throw new Error('MONGODB_URL is not set (npm start sets it for the embedded database)');
  const { client, db } = await connectDatabase(config.mongo.url, config.mongo.dbName, config.mongo.connectTimeoutMs);
  await ensureIndexes(db, INDEXES);
  const jobs = await createQueue(db, { name: processName, pollIntervalMs: config.jobs.pollIntervalMs });
  // Every recorded event wakes the webhooks service, or, when that is not confirmed, gets a
  // durable fan-out job (the sweeper is the backstop for both).
  const announcer = announceEvents({ config, log, jobs });
  const events = createEvents(db, clock, async (event) => announcer.announce(event.id));
  const platform: Platform = { config, db, jobs, events, clock, log };
  return {
    platform,
    client,
    async close() {
      await announcer.drain();
      await client.close();
    },
  };
}
