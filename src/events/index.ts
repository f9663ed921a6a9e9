export {
  createEvents,
  loadEvent,
  loadEventsNotFannedOut,
  findEventsNotFannedOut,
  findStoreEventsSince,
  markFannedOut,
  type Events,
  type DomainEvent,
  type EventOptionsOf,
  type AfterRecord,
  type EventHooks,
  type Wanted,
} from './service.js';
export { eventIndexes } from './models.js';
export { matchesEventPatterns, type EventType } from './types.js';
export { intentIndexes } from './models.js';
export { carried, carrying, carrierIndexes, type CarriesEvents, type PendingEvent } from './outbox.js';
