import { hexColour, themeAssetUrl, themeFavicon, themeSettings, translator } from '../rendering/index.js';
import { ownValue } from '../own-keys.js';
import type { RenderableTheme } from '../themes/index.js';

/**
 * The live theme's look on the shop's own pages (docs/shop.md, "The theme's look"): its colours
 * and fonts, read from its settings by the ids the fixture themes use (docs/themes.md, "Settings
 * the shop's own pages read"), mapped onto the shop stylesheet's custom properties, and its
 * favicon. Only hex colours and the known font names pass; anything else keeps the shop's own.
 */
export type ShopLook = {
  /** `--name:value;` declarations for `:root` (empty: the shop's own look). */
  vars: string;
  /** The favicon: its asset's path, URL and type, or null. */
  favicon: { path: string; url: string; content_type: string } | null;
};

export const PLAIN_LOOK: ShopLook = { vars: '', favicon: null };

/** Font stacks a `font_body`/`font_heading` setting may name (`sans`, `serif`, `mono`). */
const FONT_STACKS: Record<string, string> = {
  sans: 'system-ui,-apple-system,"Segoe UI",Roboto,"Liberation Sans",sans-serif',
  serif: 'Georgia,"Iowan Old Style","Palatino Linotype","Liberation Serif",serif',
  mono: 'ui-monospace,"SFMono-Regular","DejaVu Sans Mono",monospace',
};
const font = (value: unknown) => (typeof value === 'string' && Object.hasOwn(FONT_STACKS, value) ? FONT_STACKS[value]! : null);

/** The setting ids read, and the shop stylesheet's property each sets. */
const COLOURS: [string, string][] = [
  ['color_background', '--bg'],
  ['color_text', '--ink'],
  ['color_accent', '--accent'],
  ['color_button_label', '--accent-ink'],
];

/** The relative luminance of a hex colour (WCAG), for a label that reads on the accent when the theme names none. */
function luminance(hex: string): number {
  const h = hex.slice(1);
  const full = h.length <= 4 ? [...h.slice(0, 3)].map((c) => c + c).join('') : h.slice(0, 6);
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(full.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

export function shopLook(subdomain: string, theme: RenderableTheme | null): ShopLook {
  if (!theme) return PLAIN_LOOK;
  const settings = themeSettings(theme, translator(theme.bundle.locales, 'en'));
  const vars: string[] = [];
  for (const [id, property] of COLOURS) {
    const colour = hexColour(ownValue(settings, id));
    if (colour) vars.push(`${property}:${colour};`);
  }
  const accent = hexColour(settings.color_accent);
  if (accent && !hexColour(settings.color_button_label)) vars.push(`--accent-ink:${luminance(accent) > 0.35 ? '#111111' : '#ffffff'};`);
  const body = font(settings.font_body);
  const heading = font(settings.font_heading);
  if (body) vars.push(`--font-body:${body};`);
  if (heading ?? body) vars.push(`--font-heading:${heading ?? body};`);
  const favicon = themeFavicon(theme.bundle, settings);
  return {
    vars: vars.join(''),
    favicon: favicon ? { path: favicon.path, url: themeAssetUrl(subdomain, theme.versionId, favicon.path), content_type: favicon.content_type } : null,
  };
}
