import type { Module } from '../module.js';
import { formSubmissionRoutes, storefrontFormRoutes } from './routes.js';
import { FORM_SUBMISSIONS, formSubmissionIndexes } from './store.js';
export type { FormSubmissionView } from './present.js';

/** Storefront forms: public submissions under /v1/storefront, the store's list at /v1/form-submissions. */
export const formsModule: Module = {
  name: 'forms',
  indexes: formSubmissionIndexes,
  routes: [
    { path: '/v1/storefront', router: storefrontFormRoutes },
    { path: '/v1/form-submissions', router: formSubmissionRoutes },
  ],
  eventCarriers: [FORM_SUBMISSIONS],
  eventTypes: ['form_submission.created'],
};
