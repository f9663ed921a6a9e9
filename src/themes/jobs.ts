import { defineBackstop, defineSweep } from '../job.js';
import { sweepExpiredPreviewSessions } from './previews/sessions.js';
import { ReviewThemeVersion, sweepReviews } from './review/service.js';

/** The backstop: reviews whose job was lost or whose worker died (their lease ran out). */
export const SweepThemeReviews = defineBackstop({
  name: 'themes.sweep',
  group: 'themes',
  every: (config) => config.themes.sweepIntervalMs,
  run: async (platform) => ({ reviews_completed: await sweepReviews(platform) }),
});
/** Expired theme preview sessions. */
export const SweepThemePreviews = defineSweep('maintenance.sweep-theme-previews', sweepExpiredPreviewSessions);

/** The themes domain's jobs: its recurring ones here, `themes.review` beside the checks it runs (review/service.ts). Job names are a public contract: never rename them. */
export const themeJobs = [ReviewThemeVersion, SweepThemeReviews, SweepThemePreviews];
