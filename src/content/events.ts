/**
 * The event types the content domain records (docs/content.md, Events): added to the registry
 * in src/events/types.ts, so its `emit` and `pending` calls take only a type listed here.
 */
export const CONTENT_EVENT_TYPES = [
  'article.created',
  'article.deleted',
  'article.updated',
  'menu.created',
  'menu.deleted',
  'menu.updated',
  'page.created',
  'page.deleted',
  'page.updated',
] as const;

declare module '../events/types.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the registry is filled by declaration merging
  interface EventTypeRegistry extends Record<(typeof CONTENT_EVENT_TYPES)[number], true> {}
}
