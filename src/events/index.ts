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
export { matchesEventPatterns } from './types.js';
export { carried, carrying, carrierIndexes, intentIndexes, withoutCarried, type CarriesEvents, type PendingEvent } from './outbox.js';
