import { ReviewThemeVersion, SweepThemePreviews, SweepThemeReviews, runReview, sweepExpiredPreviewSessions, sweepReviews } from '../src/themes/index.js';
import { bindJob, bindSweep } from './types.js';

/** The themes domain's jobs: a review's automated checks, the sweep for stranded reviews, and expired previews. */
export const themeHandlers = [
  bindJob(ReviewThemeVersion, async (platform, { review_id }) => ({ review_id, outcome: await runReview(platform, review_id) })),
  bindJob(SweepThemeReviews, async (platform) => ({ reviews_completed: await sweepReviews(platform) })),
  bindSweep(SweepThemePreviews, sweepExpiredPreviewSessions),
];
