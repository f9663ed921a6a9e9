import { ObjectId } from 'mongodb';
import { isDuplicateKeyError } from '../db.js';
import type { Platform } from '../platform.js';
import { orderDays, type DayEffect, type Effect, type OrderDocument, type PendingChange } from './models.js';

/**
 * A store's orders and sales by UTC day (docs/admin.md, Home): every order change that makes an
 * order or moves money adds one step to its own (`daySteps`), run with the change's other steps,
 * so the figures are as right as the customers' totals: a `$inc` of one small document, named by
 * the step's key so a step retried counts once. Reading a month is 30 documents at most, however
 * many orders the store has.
 */

/** `2026-05-04`: the UTC day of a moment. */
export const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** The change's step on its day's figures: one order if it makes one, and the money its payment steps take or give back; none if neither. */
export function daySteps(kind: PendingChange['kind'], steps: readonly Effect[], key: string, now: Date): DayEffect[] {
  const sales = steps.reduce((sum, s) => (s.type === 'payment' ? sum + (s.kind === 'sale' ? s.amount : -s.amount) : sum), 0);
  const orders = kind === 'create' ? 1 : 0;
  return orders || sales ? [{ type: 'day', key, day: dayOf(now), orders, sales }] : [];
}

/**
 * Count the step on its day: one conditional upsert that skips a day already holding the key.
 * Two first steps of a day racing to insert it: the loser's insert is refused by the unique index
 * and it tries again on the document now there (where its key is not, unless it counted).
 */
export async function countDay(platform: Platform, order: OrderDocument, step: DayEffect): Promise<void> {
  const days = orderDays(platform.db);
  for (let attempt = 1; ; attempt++) {
    try {
      await days.updateOne(
        { store_id: order.store_id, day: step.day, pending_ops: { $ne: step.key } },
        { $inc: { orders: step.orders, sales: step.sales }, $push: { pending_ops: step.key }, $setOnInsert: { _id: new ObjectId() } },
        { upsert: true },
      );
      return;
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      if (attempt === 2) return; // refused again: the day exists and holds the key, so the step counted already
    }
  }
}

/** The change is settled: its keys leave the days they were counted on. */
export async function clearDayKeys(platform: Platform, order: OrderDocument, steps: readonly DayEffect[]): Promise<void> {
  for (const s of steps) await orderDays(platform.db).updateOne({ store_id: order.store_id, day: s.day }, { $pull: { pending_ops: s.key } });
}

export type DayFigures = { day: string; orders: number; sales: number };

/** The store's figures of the `days` UTC days up to `today`, oldest first, a day without orders or money as zeros. */
export async function orderDaysUpTo(platform: Pick<Platform, 'db'>, storeId: string, today: Date, days: number): Promise<DayFigures[]> {
  const wanted = Array.from({ length: days }, (_, i) => dayOf(new Date(today.getTime() - (days - 1 - i) * 86_400_000)));
  const docs = await orderDays(platform.db)
    .find({ store_id: new ObjectId(storeId), day: { $gte: wanted[0]!, $lte: wanted.at(-1)! } }, { projection: { day: 1, orders: 1, sales: 1 } })
    .toArray();
  const byDay = new Map(docs.map((d) => [d.day, d]));
  return wanted.map((day) => ({ day, orders: byDay.get(day)?.orders ?? 0, sales: byDay.get(day)?.sales ?? 0 }));
}
