export { findMedia } from './service.js';
export type { MediaView } from './present.js';
export { mediaIndexes } from './store.js';
