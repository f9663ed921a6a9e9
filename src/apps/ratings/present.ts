import type { AppRatingDocument, RatingKey, RatingSummary } from './models.js';
import { stamps } from '../../allow-list.js';

/** An app's app ratings at a glance: the average to one decimal (null without reviews), how many, how many of each rating. */
export type RatingView = { average: number | null; count: number; distribution: Record<RatingKey, number> };

const RATING_KEYS: readonly RatingKey[] = ['1', '2', '3', '4', '5'];

export function presentRating(summary: RatingSummary | undefined): RatingView {
  const count = summary?.count ?? 0;
  const sum = summary?.sum ?? 0;
  const distribution = Object.fromEntries(RATING_KEYS.map((k) => [k, summary?.distribution[k] ?? 0])) as Record<RatingKey, number>;
  // round(sum / count, 1) half up, in integers: floor((20·sum + count) / (2·count)) tenths.
  return { average: count > 0 ? Math.floor((20 * sum + count) / (2 * count)) / 10 : null, count, distribution };
}

/**
 * A app rating as anyone sees it: never its author or store (the author's own answers add
 * `store_id`, which they gave), nor who at the partner wrote the reply.
 */
export type AppRatingView = {
  id: string;
  rating: number;
  title: string | null;
  body: string;
  reply: { body: string; created_at: string; updated_at: string } | null;
  created_at: string;
  updated_at: string;
};

export const presentAppRating = (r: AppRatingDocument): AppRatingView => ({
  id: r._id.toHexString(),
  rating: r.rating,
  title: r.title,
  body: r.body,
  reply: r.reply ? { body: r.reply.body, created_at: r.reply.created_at.toISOString(), updated_at: r.reply.updated_at.toISOString() } : null,
  ...stamps(r),
});

/** The author's view of their review (create, edit): the public view and the store it is for. */
export type OwnAppRatingView = AppRatingView & { store_id: string };

export const presentOwnAppRating = (r: AppRatingDocument): OwnAppRatingView => ({ ...presentAppRating(r), store_id: r.store_id.toHexString() });
