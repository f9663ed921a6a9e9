import type { Module } from '../module.js';
import { FORMS_EVENT_TYPES } from './events.js';
import { formSubmissionRoutes } from './routes.js';
import { FORM_SUBMISSIONS, formSubmissionIndexes } from './models.js';
export { submitForm, type Submission } from './service.js';
export { SubmitFormBody, SubmitFormParams } from './schemas.js';
export type { FormSubmissionView } from './present.js';

/**
 * Storefront forms: the store's list at /v1/form-submissions. Public submissions
 * (`POST /v1/storefront/:subdomain/forms/:form`) are served by the storefront module, which
 * owns that mount, through submitForm.
 */
export const formsModule: Module = {
  name: 'forms',
  indexes: formSubmissionIndexes,
  routes: [{ path: '/v1/form-submissions', router: formSubmissionRoutes }],
  eventCarriers: [FORM_SUBMISSIONS],
  eventTypes: FORMS_EVENT_TYPES,
};
