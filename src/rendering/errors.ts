/**
 * The rendering domain's public error codes, beside the core's (src/errors.ts): added to the
 * registry there, so a PlatformError of this domain takes only a code listed here or in the core.
 */
export const RENDERING_ERROR_CODES = ['no_live_theme', 'preview_not_found', 'render_busy', 'template_not_found'] as const;

declare module '../errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the registry is filled by declaration merging
  interface ErrorCodeRegistry extends Record<(typeof RENDERING_ERROR_CODES)[number], true> {}
}
