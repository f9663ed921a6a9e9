/**
 * The event types the giftcards domain records (docs/events.md): added to the registry in
 * src/events/types.ts, so its `emit` and `pending` calls take only a type listed here.
 */
export const GIFTCARDS_EVENT_TYPES = ['gift_card.created', 'gift_card.debited', 'gift_card.disabled'] as const;

declare module '../events/types.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the registry is filled by declaration merging
  interface EventTypeRegistry extends Record<(typeof GIFTCARDS_EVENT_TYPES)[number], true> {}
}
