import { z } from 'zod';
import { IdString } from '../ids.js';
import { defineBackstop, defineJob, defineSweep } from '../queue.js';

/** The themes domain's jobs (handlers: jobs/themes.ts). Job names are a public contract: never rename them. */
export const ReviewThemeVersion = defineJob({ name: 'themes.review', group: 'themes', concurrency: 2, payload: z.object({ review_id: IdString('review') }) });
/** The backstop: reviews whose job was lost or whose worker died (their lease ran out). */
export const SweepThemeReviews = defineBackstop('themes.sweep', 'themes', (config) => config.themes.sweepIntervalMs);
/** Expired theme preview sessions. */
export const SweepThemePreviews = defineSweep('maintenance.sweep-theme-previews');

export const themeJobs = [ReviewThemeVersion, SweepThemeReviews, SweepThemePreviews];
