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
export { eventIndexes } from './store.js';
export { matchesEventPatterns, type EventType } from './types.js';
export { intentIndexes } from './store.js';
export { carried, carrying, carrierIndexes, withoutCarried, type CarriesEvents, type PendingEvent } from './outbox.js';
