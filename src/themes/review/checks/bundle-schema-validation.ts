import { validateBundle } from '../../bundle/validate.js';
import type { ThemeReviewCheck } from '../check.js';

export const bundleSchemaValidation: ThemeReviewCheck = {
  code: 'bundle_schema_validation',
  blocking: true,
  description: 'The stored bundle validated again by the current bundle rules.',
  run(platform, version) {
    return validateBundle(version.bundle, { config: platform.config }).issues;
  },
};
