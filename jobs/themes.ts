import { REVIEW_THEME_VERSION, ReviewPayload, SWEEP_THEME_REVIEWS, runReview, sweepReviews } from '../src/themes/index.js';
import type { JobHandlers } from './types.js';

/** The themes domain's jobs: a review's automated checks, and the sweep for stranded reviews. */
export const themeHandlers: JobHandlers = {
  async [REVIEW_THEME_VERSION](platform, data) {
    const { review_id } = ReviewPayload.parse(data);
    return { review_id, outcome: await runReview(platform, review_id) };
  },

  async [SWEEP_THEME_REVIEWS](platform) {
    return { reviews_completed: await sweepReviews(platform) };
  },
};
