/**
 * The event types the platform records (docs/events.md; every one is documented, which a test
 * checks). Each domain lists its own, `as const`, in its `events.ts` and adds them to this
 * registry by declaration merging, so `emit` and `pending` take only a declared type: a typo is a
 * type error, never a new public event type.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the domains' events.ts
export interface EventTypeRegistry {}
export type EventType = Extract<keyof EventTypeRegistry, string>;

/** Whether an event type is covered by any of the patterns. */
export function matchesEventPatterns(type: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => p === '*' || p === type || (p.endsWith('.*') && type.startsWith(p.slice(0, -1))));
}
