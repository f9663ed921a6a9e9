export { createEvents, type Events, type DomainEvent } from './service.js';
export { eventIndexes } from './store.js';
export { EVENT_TYPES, isEventPattern, matchesEventPatterns, type EventType } from './types.js';
