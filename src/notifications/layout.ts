import { escapeHtml, safeHref } from '../html.js';

/** The colours of a store's emails: its live theme's accent, text and background when it has them. */
export type EmailColors = { accent: string; accent_text: string; text: string; background: string };

/** A neutral look for a store whose theme names no colours. */
export const NEUTRAL_COLORS: EmailColors = { accent: '#111827', accent_text: '#ffffff', text: '#111827', background: '#f3f4f6' };

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** A theme setting's colour, only as a plain hex colour (anything else could end the style attribute). */
export const hexColor = (value: unknown): string | null => (typeof value === 'string' && HEX.test(value.trim()) ? value.trim() : null);

/** Black or white, whichever reads on the accent. */
export function textOn(hex: string): string {
  const full =
    hex.length === 4
      ? hex
          .slice(1)
          .split('')
          .map((c) => c + c)
          .join('')
      : hex.slice(1);
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16) / 255) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.55 ? '#111827' : '#ffffff';
}

/**
 * The HTML email around a notification's rendered content: table-based with inline styles (what
 * mail clients keep), 600 px at most and fluid below, the store's name (or logo) in its accent
 * colour at the top. The content is the HTML template's output, already escaped where it
 * printed values; the store's name and logo are escaped here.
 */
export function emailLayout(content: string, shop: { name: string; url: string; logo_url: string | null }, colors: EmailColors, subject: string): string {
  const name = escapeHtml(shop.name);
  const logo = shop.logo_url ? safeHref(shop.logo_url) : null;
  const brand = logo
    ? `<img src="${escapeHtml(logo)}" alt="${name}" style="max-width:200px;max-height:60px;border:0">`
    : `<span style="font-size:20px;font-weight:bold;color:${colors.accent}">${name}</span>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(subject)}</title>
</head>
<body style="margin:0;padding:0;background:${colors.background};color:${colors.text};font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:15px;line-height:1.4">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${colors.background}">
<tr><td align="center" style="padding:16px 8px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:6px;border-top:4px solid ${colors.accent}">
<tr><td style="padding:20px 24px 0"><a href="${escapeHtml(shop.url)}" style="text-decoration:none">${brand}</a></td></tr>
<tr><td style="padding:16px 24px 24px;color:#111827;word-wrap:break-word">
${content}
</td></tr>
</table>
<p style="max-width:600px;margin:12px auto 0;font-size:12px;color:#6b7280">${name} · <a href="${escapeHtml(shop.url)}" style="color:#6b7280">${escapeHtml(shop.url)}</a></p>
</td></tr>
</table>
</body>
</html>`;
}
