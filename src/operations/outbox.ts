import { messagesOverview, redispatchStrandedMessages } from '../messages/index.js';
import type { Platform } from '../platform.js';
import { outboxOverview } from './overview.js';

/** Events one re-drive records at most from each carrying collection (and from delete intents); the rest wait for the next. */
export const REDRIVE_LIMIT = 500;

/**
 * The outbox (docs/operations.md, Outbox): documents still carrying events past the settle delay
 * (and delete intents), by collection, and outbound messages not yet delivered.
 */
export async function readOutbox(platform: Platform) {
  const now = platform.clock.now();
  const [events, messages] = await Promise.all([outboxOverview(platform, now), messagesOverview(platform.db, now)]);
  return { ...events, ...messages };
}

/**
 * Re-drive the outbox now rather than at the next sweeps: record the events left on documents
 * past the settle delay (the `maintenance.settle-events` sweep's work: the same keys, so each
 * event once, whoever records it first), and enqueue again the messages whose delivery job was
 * lost. Answers what it did and the outbox after it.
 */
export async function redriveOutbox(platform: Platform) {
  const before = new Date(platform.clock.now().getTime() - platform.config.events.settleAfterMs);
  const [eventsRecorded, messagesRedispatched] = await Promise.all([
    platform.events.settleLeftBehind(before, REDRIVE_LIMIT),
    redispatchStrandedMessages(platform),
  ]);
  platform.log.info({ event: 'operations.outbox_redriven', events_recorded: eventsRecorded, messages_redispatched: messagesRedispatched });
  return { events_recorded: eventsRecorded, messages_redispatched: messagesRedispatched, outbox: await readOutbox(platform) };
}
