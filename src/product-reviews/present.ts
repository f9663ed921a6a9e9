import type { ReviewDocument } from './models.js';
import { stamps } from '../allow-list.js';

export type RatingSummary = {
  product_id: string;
  count: number;
  /** One decimal, or null without published reviews. */
  average: number | null;
  distribution: { '1': number; '2': number; '3': number; '4': number; '5': number };
};

export const presentReview = (r: ReviewDocument) => ({
  id: r._id.toHexString(),
  product_id: r.product_id.toHexString(),
  customer_id: r.customer_id ? r.customer_id.toHexString() : null,
  author_name: r.author_name,
  author_email: r.author_email,
  rating: r.rating,
  title: r.title,
  body: r.body,
  status: r.status,
  reply: r.reply ? { body: r.reply.body, replied_at: r.reply.replied_at.toISOString() } : null,
  version: r.version,
  ...stamps(r),
});
export type ReviewView = ReturnType<typeof presentReview>;
