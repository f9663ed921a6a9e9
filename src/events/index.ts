export { createEvents, loadEvent, loadEventsNotFannedOut, findEventsNotFannedOut, markFannedOut, type Events, type DomainEvent, type AfterRecord } from './service.js';
export { eventIndexes } from './store.js';
export { EVENT_TYPES, isEventPattern, matchesEventPatterns, type EventType } from './types.js';
