/** The clock is a dependency so expiry and retry logic can be tested without sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** The UTC day of a time, `YYYY-MM-DD` (the key of daily counters). */
export const dayOf = (at: Date) => at.toISOString().slice(0, 10);
