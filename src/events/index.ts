export { createEvents, type Events, type DomainEvent } from './service.js';
export { eventIndexes } from './store.js';
