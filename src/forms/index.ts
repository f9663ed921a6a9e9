export type { FormSubmissionView } from './present.js';
export { formSubmissionIndexes } from './store.js';
