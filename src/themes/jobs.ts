import { z } from 'zod';
import { IdString } from '../ids.js';
import type { JobContract } from '../module.js';

/** Job names are a public contract: never rename them. */
export const REVIEW_THEME_VERSION = 'themes.review';
export const SWEEP_THEME_REVIEWS = 'themes.sweep';

export const ReviewPayload = z.object({ review_id: IdString() });

/** The themes worker group runs these (handlers: jobs/themes.ts). */
export const themeJobs: readonly JobContract[] = [
  { name: REVIEW_THEME_VERSION, group: 'themes', concurrency: 2 },
  // The backstop: reviews whose job was lost or whose worker died (their lease ran out).
  { name: SWEEP_THEME_REVIEWS, group: 'themes', concurrency: 1, everyMs: (platform) => platform.config.themes.sweepIntervalMs },
];
